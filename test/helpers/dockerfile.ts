/**
 * Reads a Dockerfile into its stages and instructions, and replays the file-system part of a stage
 * (WORKDIR, COPY, RUN, ENV) into a directory: how the image build is tested on a machine without a
 * container engine. Supports what this project's Dockerfile uses: one instruction per line,
 * `COPY [--from=stage] src... dest`, `ENV k=v ...`, `USER`, and `CMD` in JSON form.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

export interface Instruction {
	op: string;
	args: string;
}

export interface Stage {
	name: string;
	base: string;
	instructions: Instruction[];
}

export function parseDockerfile(text: string): Stage[] {
	const stages: Stage[] = [];
	for (const raw of text.split("\n")) {
		const line = raw.trim();
		if (line === "" || line.startsWith("#")) continue;
		const space = line.indexOf(" ");
		const op = line.slice(0, space).toUpperCase();
		const args = line.slice(space + 1).trim();
		if (op === "FROM") {
			const [base, as, name] = args.split(/\s+/);
			stages.push({ base, name: as?.toUpperCase() === "AS" ? name : String(stages.length), instructions: [] });
		} else {
			if (stages.length === 0) throw new Error(`${op} before FROM`);
			stages[stages.length - 1].instructions.push({ op, args });
		}
	}
	return stages;
}

/** Top-level entries of the build context, less those .dockerignore names (exact names and `*.ext`). */
export function copyContext(root: string, target: string): void {
	const ignore = fs
		.readFileSync(path.join(root, ".dockerignore"), "utf8")
		.split("\n")
		.map(l => l.trim())
		.filter(l => l && !l.startsWith("#"));
	const ignored = (name: string) => ignore.some(p => (p.startsWith("*.") ? name.endsWith(p.slice(1)) : p === name));
	fs.mkdirSync(target, { recursive: true });
	for (const name of fs.readdirSync(root)) {
		if (!ignored(name)) fs.cpSync(path.join(root, name), path.join(target, name), { recursive: true });
	}
}

export interface ReplayedStage {
	/** The stage's root file system (a directory standing for `/`). */
	root: string;
	workdir: string;
	env: Record<string, string>;
	user: string | undefined;
	cmd: string[] | undefined;
	/** RUN lines not executed (system packages), for the test to report and check otherwise. */
	skipped: string[];
}

export interface ReplayOptions {
	context: string;
	/** Roots of stages already replayed, by name, for `COPY --from`. */
	stages: Record<string, ReplayedStage>;
	/** Whether to execute a RUN line (the others are returned as `skipped`). */
	runs(command: string): boolean;
	/** Environment for RUN lines besides the stage's ENV. */
	runEnv: Record<string, string>;
}

export function replayStage(stage: Stage, root: string, options: ReplayOptions): ReplayedStage {
	const out: ReplayedStage = { root, workdir: root, env: {}, user: undefined, cmd: undefined, skipped: [] };
	fs.mkdirSync(root, { recursive: true });
	const inRoot = (p: string, base: string) => (p.startsWith("/") ? path.join(root, p) : path.join(base, p));
	for (const { op, args } of stage.instructions) {
		if (op === "WORKDIR") {
			out.workdir = inRoot(args, out.workdir);
			fs.mkdirSync(out.workdir, { recursive: true });
		} else if (op === "COPY") {
			const words = args.split(/\s+/);
			const from = words[0].startsWith("--from=") ? (words.shift() as string).slice("--from=".length) : undefined;
			const dest = words.pop() as string;
			const sourceRoot = from ? options.stages[from] : undefined;
			if (from && !sourceRoot) throw new Error(`COPY --from=${from}: no such stage replayed`);
			for (const src of words) {
				const source = sourceRoot ? (src.startsWith("/") ? path.join(sourceRoot.root, src) : path.join(sourceRoot.workdir, src)) : path.join(options.context, src);
				if (!fs.existsSync(source)) throw new Error(`COPY ${src}: not in the ${from ? `stage ${from}` : "build context"}`);
				const destPath = inRoot(dest, out.workdir);
				const target = fs.statSync(source).isDirectory() ? destPath : dest.endsWith("/") ? path.join(destPath, path.basename(src)) : destPath;
				fs.mkdirSync(path.dirname(target), { recursive: true });
				fs.cpSync(source, target, { recursive: true });
			}
		} else if (op === "RUN") {
			if (!options.runs(args)) {
				out.skipped.push(args);
				continue;
			}
			execFileSync("sh", ["-c", args], { cwd: out.workdir, env: { ...process.env, ...out.env, ...options.runEnv }, stdio: "pipe", maxBuffer: 64 * 1024 * 1024 });
		} else if (op === "ENV") {
			for (const pair of args.split(/\s+/)) {
				const eq = pair.indexOf("=");
				out.env[pair.slice(0, eq)] = pair.slice(eq + 1);
			}
		} else if (op === "USER") {
			out.user = args;
		} else if (op === "CMD") {
			out.cmd = JSON.parse(args) as string[];
		} else if (op !== "EXPOSE" && op !== "LABEL") {
			throw new Error(`Dockerfile instruction ${op} is not replayed by this helper`);
		}
	}
	return out;
}
