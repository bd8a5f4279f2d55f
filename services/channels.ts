/**
 * Types for durable channels (@moleculer/channels), whose package adds `channels` to service
 * schemas and `sendToChannel` to the broker at run time without declaring either.
 */
import type { ServiceBroker } from "moleculer";

/** One channel subscription of a service; `handler` runs with the service as `this`. */
export interface ChannelSchema<TPayload, TThis> {
	/** Consumer group: each message goes to one member of the group. */
	group: string;
	/** Messages one node handles at once. */
	maxInFlight?: number;
	handler: (this: TThis, payload: TPayload, raw: unknown) => Promise<void>;
}

/** Publishes a message on a durable channel. */
export function sendToChannel(broker: ServiceBroker, channel: string, payload: object): Promise<void> {
	return (broker as unknown as { sendToChannel(name: string, payload: object): Promise<void> }).sendToChannel(channel, payload);
}
