import { markSent, requeueStaleJobs, staleJobsQuery } from "../../lib/jobs/durable-job";

interface Job {
	_id: string;
	status: string;
}

/** A job collection that answers `find` with fixed jobs and records every query it is asked. */
function collection(found: Job[]) {
	const queries: object[] = [];
	return {
		queries,
		async find(query: object): Promise<Job[]> {
			queries.push(query);
			return found;
		}
	};
}

describe("requeueStaleJobs", () => {
	it("sends each stale job once, and writes nothing itself: the send records it", async () => {
		const jobs = collection([
			{ _id: "a", status: "queued" },
			{ _id: "b", status: "running" }
		]);
		const sent: string[] = [];
		expect(await requeueStaleJobs(jobs, 1_000_000, 60_000, async job => void sent.push(job._id))).toBe(2);
		expect(sent).toEqual(["a", "b"]);
		expect(jobs.queries).toEqual([staleJobsQuery(1_000_000, 60_000)]);
		// The one write per send marks the job sent and fresh together.
		expect(markSent("a", 5).update).toEqual({ $set: { sent_at: 5, updated_at: 5 } });
	});

	it("skips the jobs the caller gives up on", async () => {
		const jobs = collection([
			{ _id: "a", status: "running" },
			{ _id: "b", status: "queued" }
		]);
		const sent: string[] = [];
		expect(await requeueStaleJobs(jobs, 0, 60_000, async job => void sent.push(job._id), async job => job._id === "a")).toBe(1);
		expect(sent).toEqual(["b"]);
	});

	it("a job that cannot be sent does not hold back the others; the first error is thrown after", async () => {
		const jobs = collection([
			{ _id: "a", status: "queued" },
			{ _id: "b", status: "queued" },
			{ _id: "c", status: "queued" }
		]);
		const sent: string[] = [];
		const resend = async (job: Job) => {
			if (job._id !== "b") throw new Error(`channel down for ${job._id}`);
			sent.push(job._id);
		};
		await expect(requeueStaleJobs(jobs, 0, 60_000, resend)).rejects.toThrow("channel down for a");
		expect(sent).toEqual(["b"]);
	});
});
