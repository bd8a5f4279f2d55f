/**
 * The project's server for the gateway benchmark, in a process of its own as the anchors are
 * (`node --import tsx project.ts` prints `{"baseUrl", "chatbotId", "demoSessionId"}` once
 * listening, and runs until SIGTERM): the all-in-one app of fixture.ts. Measured in the benchmark's
 * own process it shared that process with the harness, and its figures moved with how the harness
 * was started (under the tsx CLI, p99 of the POST routes rose from about 2 ms to 8–10 ms).
 */
import { startGatewayFixture } from "./fixture";

async function main(): Promise<void> {
	const fixture = await startGatewayFixture();
	process.once("SIGTERM", () => {
		fixture.app.stop().then(
			() => process.exit(0),
			() => process.exit(1)
		);
	});
	process.stdout.write(`${JSON.stringify({ baseUrl: fixture.app.baseUrl, chatbotId: fixture.chatbotId, demoSessionId: fixture.demoSessionId })}\n`);
}

main().catch(err => {
	console.error(err);
	process.exit(1);
});
