/**
 * A strict field check for Kubernetes objects: walks each object beside its TypeScript type from
 * `kubernetes-models` (generated from the Kubernetes OpenAPI schemas) and reports every field the
 * type does not declare. The package's validators check types and required fields but accept
 * unknown fields, which the API server would drop or refuse (a misspelt probe is silently lost).
 */
import * as path from "node:path";
import ts from "typescript";

const ROOT = path.resolve(__dirname, "../..");

/** Module of the model for an apiVersion and kind: `apps/v1` + `Deployment` → `kubernetes-models/apps/v1/Deployment`. */
export function modelModule(apiVersion: string, kind: string): string {
	return `kubernetes-models/${apiVersion}/${kind}`;
}

export class StrictFieldChecker {
	private readonly checker: ts.TypeChecker;
	private readonly types = new Map<string, ts.Type>();

	constructor(kinds: ReadonlyArray<{ apiVersion: string; kind: string }>) {
		const unique = [...new Map(kinds.map(k => [`${k.apiVersion}/${k.kind}`, k])).values()];
		const source = unique.map((k, i) => `import type { I${k.kind} as T${i} } from "${modelModule(k.apiVersion, k.kind)}";\nexport type K${i} = T${i};`).join("\n");
		const fileName = path.join(ROOT, "__k8s_kinds__.ts");
		const options: ts.CompilerOptions = { strict: true, noEmit: true, moduleResolution: ts.ModuleResolutionKind.Bundler, module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, types: [] };
		const host = ts.createCompilerHost(options);
		const original = host.getSourceFile.bind(host);
		host.getSourceFile = (name, version, ...rest) => (name === fileName ? ts.createSourceFile(name, source, version) : original(name, version, ...rest));
		const fileExists = host.fileExists.bind(host);
		host.fileExists = name => name === fileName || fileExists(name);
		const program = ts.createProgram([fileName], options, host);
		const problems = ts.getPreEmitDiagnostics(program).filter(d => d.category === ts.DiagnosticCategory.Error);
		if (problems.length) throw new Error(`kubernetes-models types did not load: ${ts.flattenDiagnosticMessageText(problems[0].messageText, "\n")}`);
		this.checker = program.getTypeChecker();
		const file = program.getSourceFile(fileName) as ts.SourceFile;
		const exported = this.checker.getExportsOfModule(this.checker.getSymbolAtLocation(file) as ts.Symbol);
		unique.forEach((k, i) => {
			const symbol = exported.find(s => s.name === `K${i}`) as ts.Symbol;
			this.types.set(`${k.apiVersion}/${k.kind}`, this.checker.getDeclaredTypeOfSymbol(symbol));
		});
	}

	/** Paths of the fields `object` has and its type does not declare. */
	unknownFields(object: { apiVersion: string; kind: string }): string[] {
		const type = this.types.get(`${object.apiVersion}/${object.kind}`);
		if (!type) throw new Error(`No type loaded for ${object.apiVersion} ${object.kind}`);
		const out: string[] = [];
		this.walk(object, type, "", out);
		return out;
	}

	private walk(value: unknown, type: ts.Type, at: string, out: string[]): void {
		if (value === null || value === undefined) return;
		if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return;
		const members = type.isUnion() ? type.types : [type];
		if (Array.isArray(value)) {
			const element = members.map(t => this.checker.getIndexTypeOfType(t, ts.IndexKind.Number)).find(Boolean);
			if (!element) return void out.push(`${at || "."}: a list where none is allowed`);
			value.forEach((item, i) => this.walk(item, element, `${at}[${i}]`, out));
			return;
		}
		if (typeof value !== "object") return; // scalars: the models' own validators check them
		const objectType = members.find(t => t.flags & ts.TypeFlags.Object && !this.checker.getIndexTypeOfType(t, ts.IndexKind.Number));
		if (!objectType) return void out.push(`${at || "."}: an object where none is allowed`);
		const byKey = this.checker.getIndexTypeOfType(objectType, ts.IndexKind.String);
		for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
			const property = objectType.getProperty(key);
			const field = `${at}.${key}`;
			if (property) this.walk(inner, this.checker.getTypeOfSymbol(property), field, out);
			else if (byKey) this.walk(inner, byKey, field, out);
			else out.push(field);
		}
	}
}
