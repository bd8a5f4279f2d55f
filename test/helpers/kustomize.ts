/**
 * Renders a kustomization offline, as `kubectl apply -k` would, for the subset this project's
 * k8s/ uses: `resources` (files, or directories holding a kustomization), `patches` (strategic
 * merge patches by `path`, matched on kind and name), `namespace` and `images`. Anything else in
 * a kustomization, or a patch that matches nothing, is an error, so the manifests cannot quietly
 * grow past what the test checks.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parseAllDocuments } from "yaml";

export type K8sObject = {
	apiVersion: string;
	kind: string;
	metadata: { name: string; namespace?: string; [key: string]: unknown };
	[key: string]: unknown;
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const SUPPORTED = new Set(["apiVersion", "kind", "resources", "patches", "namespace", "images"]);

export function readYamlObjects(file: string): K8sObject[] {
	return parseAllDocuments(fs.readFileSync(file, "utf8")).map(doc => {
		if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0].message}`);
		return doc.toJS() as K8sObject;
	}).filter(Boolean);
}

function isMap(value: unknown): value is Record<string, Json> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Strategic merge: maps merge key by key; lists of named maps merge by `name`; other lists are replaced. */
export function strategicMerge(target: Json, patch: Json): Json {
	if (isMap(target) && isMap(patch)) {
		const out: Record<string, Json> = { ...target };
		for (const [key, value] of Object.entries(patch)) out[key] = key in out ? strategicMerge(out[key], value) : value;
		return out;
	}
	if (Array.isArray(target) && Array.isArray(patch) && patch.every(item => isMap(item) && typeof item.name === "string")) {
		const out = [...target];
		for (const item of patch as Array<Record<string, Json>>) {
			const at = out.findIndex(existing => isMap(existing) && existing.name === item.name);
			if (at >= 0) out[at] = strategicMerge(out[at], item);
			else out.push(item);
		}
		return out;
	}
	return patch;
}

export function renderKustomization(dir: string): K8sObject[] {
	const file = path.join(dir, "kustomization.yaml");
	const [kustomization] = readYamlObjects(file) as unknown as Array<Record<string, unknown>>;
	for (const key of Object.keys(kustomization)) if (!SUPPORTED.has(key)) throw new Error(`${file}: "${key}" is not supported by this renderer`);
	let objects: K8sObject[] = [];
	for (const resource of (kustomization.resources as string[] | undefined) ?? []) {
		const target = path.resolve(dir, resource);
		objects.push(...(fs.statSync(target).isDirectory() ? renderKustomization(target) : readYamlObjects(target)));
	}
	for (const patch of (kustomization.patches as Array<{ path: string }> | undefined) ?? []) {
		for (const doc of readYamlObjects(path.resolve(dir, patch.path))) {
			const at = objects.findIndex(o => o.kind === doc.kind && o.metadata.name === doc.metadata.name);
			if (at < 0) throw new Error(`${patch.path}: the patch of ${doc.kind} ${doc.metadata.name} matches nothing`);
			objects[at] = strategicMerge(objects[at] as unknown as Json, doc as unknown as Json) as unknown as K8sObject;
		}
	}
	const namespace = kustomization.namespace as string | undefined;
	if (namespace) objects = objects.map(o => ({ ...o, metadata: { ...o.metadata, namespace } }));
	for (const image of (kustomization.images as Array<{ name: string; newName?: string; newTag?: string }> | undefined) ?? []) {
		objects = objects.map(o => retagImages(o, image));
	}
	return objects;
}

function retagImages(object: K8sObject, image: { name: string; newName?: string; newTag?: string }): K8sObject {
	const walk = (value: Json): Json => {
		if (Array.isArray(value)) return value.map(walk);
		if (!isMap(value)) return value;
		const out: Record<string, Json> = {};
		for (const [key, inner] of Object.entries(value)) {
			if (key === "image" && typeof inner === "string" && inner.split(":")[0] === image.name) {
				const tag = image.newTag ?? inner.split(":")[1];
				out[key] = `${image.newName ?? image.name}${tag ? `:${tag}` : ""}`;
			} else out[key] = walk(inner);
		}
		return out;
	};
	return walk(object as unknown as Json) as unknown as K8sObject;
}
