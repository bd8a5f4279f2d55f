/**
 * Service schemas shaped for a test's scenario.
 */
import type { ServiceSchema } from "moleculer";
import type { AnyServiceSchema } from "../../services";

/**
 * A worker service that can queue jobs but consumes none, as a process that died before its
 * worker took the message would leave them: its channel subscriptions (in the schema and in its
 * mixins, where the durable-job mixin declares them) are removed.
 */
export function producerOnly(schema: AnyServiceSchema): ServiceSchema {
	const strip = (part: Partial<ServiceSchema>): Partial<ServiceSchema> => {
		const { channels: _consumer, mixins, ...rest } = part as Partial<ServiceSchema> & { channels?: unknown };
		return mixins ? { ...rest, mixins: mixins.map(strip) } : rest;
	};
	return strip(schema as Partial<ServiceSchema>) as ServiceSchema;
}
