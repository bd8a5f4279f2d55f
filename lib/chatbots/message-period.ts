/**
 * The period an account chatbot's messages are counted in. A free account counts per UTC calendar
 * month; a subscriber per paid period (Stripe's current period, told by the billing service). Demo
 * and sandbox chatbots have no period: their few messages are a trial for their whole life.
 *
 * The count is reset at the moment of use: the first message after a period ended starts the next
 * period with a count of one, in the same conditional write that counts it (lib/chatbots/gates.ts),
 * so no sweep has to run at midnight and no burst slips through around the boundary.
 */

export interface MessagePeriod {
	/** `calendar`: UTC calendar months (free accounts). `paid`: the subscription's billing period. */
	anchor: "calendar" | "paid";
	/** Epoch milliseconds, inclusive. */
	start: number;
	/** Epoch milliseconds, exclusive. */
	end: number;
}

const DAY_MS = 24 * 3600_000;

/** The UTC calendar month that contains `now`. */
export function calendarMonth(now: number): MessagePeriod {
	const date = new Date(now);
	const year = date.getUTCFullYear();
	const month = date.getUTCMonth();
	return { anchor: "calendar", start: Date.UTC(year, month, 1), end: Date.UTC(year, month + 1, 1) };
}

/**
 * The period that contains `now`: `period` itself while it runs, else the one after it. A paid
 * period that ended before the billing service told of the next (Stripe's `invoice.paid` comes
 * around the renewal, sometimes later) is followed by one of the same length starting where it
 * ended: Stripe's periods follow each other without a gap, so the start is exact and the billing
 * service corrects the end when the invoice is paid.
 */
export function periodAt(period: MessagePeriod, now: number): MessagePeriod {
	if (now < period.end) return period;
	if (period.anchor === "calendar") return calendarMonth(now);
	const length = Math.max(period.end - period.start, DAY_MS);
	const steps = Math.floor((now - period.end) / length) + 1;
	return { anchor: "paid", start: period.start + steps * length, end: period.end + steps * length };
}

/** Messages counted in the period that contains `now` (zero once the stored period has ended). */
export function messagesInPeriod(chatbot: { counts: { messages: number }; message_period?: MessagePeriod | null }, now: number): number {
	const stored = chatbot.message_period;
	if (!stored) return chatbot.counts.messages;
	return periodAt(stored, now).start === stored.start ? chatbot.counts.messages : 0;
}
