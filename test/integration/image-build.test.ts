/**
 * The image, built without a container engine: the Dockerfile's stages are replayed on a clean
 * copy of the build context (npm ci, npm run build, npm prune --omit=dev, the COPY lines between
 * stages), and the runtime stage's CMD is started as its USER (uid 1000, dropped with setpriv)
 * with the application tree read-only and only a temporary directory writable. It must answer its
 * probes, /v2/health and a chat question, run no TypeScript loader, and drain on SIGTERM.
 * Only the runtime stage's `apt-get install` is not replayed: the machine's Chromium stands in.
 */
import { ChildProcess, execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ask, DemoClient } from "../helpers/chat-client";
import { copyContext, parseDockerfile, replayStage, ReplayedStage } from "../helpers/dockerfile";
import { freePort } from "../helpers/ports";
import { eventually } from "../helpers/processes";

const ROOT = path.resolve(__dirname, "../..");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-image-"));
let runtime: ReplayedStage;
let child: ChildProcess | undefined;
let output = "";
let baseUrl: string;
let opsUrl: string;
const asRoot = process.getuid?.() === 0;

beforeAll(() => {
	fs.chmodSync(work, 0o755);
	const context = path.join(work, "context");
	copyContext(ROOT, context);
	const stages = parseDockerfile(fs.readFileSync(path.join(ROOT, "Dockerfile"), "utf8"));
	expect(stages.map(s => s.name)).toEqual(["build", "runtime"]);
	expect(stages.every(s => /^node:(2[2-9]|[3-9]\d)/.test(s.base))).toBe(true);
	const replayed: Record<string, ReplayedStage> = {};
	for (const stage of stages) {
		replayed[stage.name] = replayStage(stage, path.join(work, stage.name), {
			context,
			stages: replayed,
			// System packages cannot be installed into a directory; every npm step runs for real.
			runs: command => !command.startsWith("apt-get"),
			// The packages were downloaded by this machine's own `npm ci`: reuse its cache.
			runEnv: { npm_config_prefer_offline: "true", npm_config_update_notifier: "false" }
		});
	}
	runtime = replayed.runtime;
}, 600_000);

afterAll(() => {
	if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
	execFileSync("chmod", ["-R", "u+w", work]);
	fs.rmSync(work, { recursive: true, force: true });
});

it("builds production JavaScript with production dependencies only", () => {
	const app = runtime.workdir;
	expect(fs.existsSync(path.join(app, "dist/bin/start.js"))).toBe(true);
	expect(fs.existsSync(path.join(app, "dist/lib/workers/worker-entry.js"))).toBe(true);
	expect(fs.existsSync(path.join(app, "dist/assets/widget.js"))).toBe(true);
	expect(fs.existsSync(path.join(app, "dist/docs/en"))).toBe(true);
	expect(fs.existsSync(path.join(app, "node_modules/moleculer"))).toBe(true);
	// (typescript itself stays: @qdrant/js-client-rest declares it as a peer dependency.)
	for (const devOnly of ["tsx", "jest", "ts-jest", "kubernetes-models", "s3rver"]) {
		expect({ devOnly, present: fs.existsSync(path.join(app, "node_modules", devOnly)) }).toEqual({ devOnly, present: false });
	}
	expect(fs.readdirSync(app).sort()).toEqual(["dist", "node_modules", "package.json"]);
	expect(runtime.skipped).toHaveLength(1);
	expect(runtime.skipped[0]).toContain("chromium");
	expect(fs.existsSync(runtime.env.CHROMIUM_PATH)).toBe(true);
	expect(runtime.cmd).toEqual(["node", "dist/bin/start.js"]);
	expect(runtime.user).toBe("1000:1000");
});

it("runs as the image's user with a read-only tree: probes, health and a chat answer", async () => {
	execFileSync("chmod", ["-R", "a-w", runtime.workdir]);
	const tmp = path.join(work, "tmp"); // the pod's only writable place
	fs.mkdirSync(tmp);
	const [uid, gid] = (runtime.user as string).split(":").map(Number);
	if (asRoot) fs.chownSync(tmp, uid, gid);
	const [port, opsPort] = [await freePort(), await freePort()];
	baseUrl = `http://127.0.0.1:${port}`;
	opsUrl = `http://127.0.0.1:${opsPort}`;
	const [command, ...args] = runtime.cmd as string[];
	const node = command === "node" ? process.execPath : command;
	const env = {
		PATH: process.env.PATH ?? "/usr/bin:/bin",
		...runtime.env,
		HOME: tmp,
		DATA_DIR: path.join(tmp, "data"),
		PORT: String(port),
		OPS_PORT: String(opsPort),
		HOST: "127.0.0.1",
		PUBLIC_URL: baseUrl,
		TRUST_PROXY: "1",
		LOG_LEVEL: "info"
	};
	// setpriv execs node in place: the spawned process is node itself, as PID 1 is in the container.
	child = asRoot
		? spawn("setpriv", [`--reuid=${uid}`, `--regid=${gid}`, "--clear-groups", node, ...args], { cwd: runtime.workdir, env, stdio: ["ignore", "pipe", "pipe"] })
		: spawn(node, args, { cwd: runtime.workdir, env, stdio: ["ignore", "pipe", "pipe"] });
	child.stdout?.on("data", d => (output += d.toString()));
	child.stderr?.on("data", d => (output += d.toString()));
	const exited = new Promise<number | null>(resolve => child?.once("exit", code => resolve(code)));

	await eventually(async () => ((await fetch(`${opsUrl}/readyz`)).status === 200 ? true : undefined), 60_000, "the image's process to be ready");
	const pid = child.pid as number;
	const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
	expect(cmdline.slice(1)).toEqual(["dist/bin/start.js"]);
	if (asRoot) expect(fs.readFileSync(`/proc/${pid}/status`, "utf8")).toMatch(new RegExp(`^Uid:\\s+${uid}\\s`, "m"));

	const health = await fetch(`${baseUrl}/v2/health`);
	expect(health.status).toBe(200);
	expect(await health.text()).toBe("ok");

	const demo = await DemoClient.create(baseUrl);
	await demo.addText("Lindqvist Bakery\n\nThe sourdough loaf is baked every morning at five. The shop closes on Mondays.");
	expect((await demo.train()).status).toBe(200);
	await demo.untilReady(60_000);
	const reply = await ask(baseUrl, demo.slug, "When is the sourdough baked?");
	expect(reply.status).toBe(200);
	expect(reply.body.answer).toContain("five");

	child.kill("SIGTERM");
	expect(await exited).toBe(0);
	expect(output).not.toMatch(/EACCES|EROFS/);
}, 180_000);
