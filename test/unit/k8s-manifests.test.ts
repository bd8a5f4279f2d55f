/**
 * The cluster manifests, rendered offline from k8s/overlays/{small,ha} (test/helpers/kustomize.ts)
 * and checked against the Kubernetes schemas (kubernetes-models validators), with unknown fields
 * refused (test/helpers/k8s-strict.ts), then against the promises of the deployment: probes,
 * security contexts, grace periods, disruption budgets, queue-driven scaling, and a configuration
 * the services accept.
 */
import * as path from "node:path";
import Ajv from "ajv";
import { ConfigError, KNOWN_SERVICES, loadConfig } from "../../config";
import { brokerOptions } from "../../moleculer.config";
import { SITE_CRAWL_CHANNEL } from "../../services/crawler.service";
import { EXTRACTION_CHANNEL } from "../../services/extractor.service";
import { TRAINING_CHANNEL } from "../../services/trainer.service";
import { execFileSync } from "node:child_process";
import { StrictFieldChecker } from "../helpers/k8s-strict";
import { K8sObject, readYamlObjects, renderKustomization } from "../helpers/kustomize";

const K8S = path.resolve(__dirname, "../../k8s");
const OVERLAYS = ["small", "ha"] as const;
const rendered = Object.fromEntries(OVERLAYS.map(o => [o, renderKustomization(path.join(K8S, "overlays", o))])) as Record<(typeof OVERLAYS)[number], K8sObject[]>;
const all = OVERLAYS.flatMap(o => rendered[o]);
const isKeda = (o: K8sObject) => o.apiVersion === "keda.sh/v1alpha1";

/** Problems the kubernetes-models validators find (test/helpers/k8s-validate.mjs, in its own node process). */
function schemaProblems(objects: readonly unknown[]): string[] {
	const out = execFileSync(process.execPath, [path.join(__dirname, "../helpers/k8s-validate.mjs")], {
		input: JSON.stringify(objects),
		cwd: path.resolve(__dirname, "../.."),
		env: { ...process.env, NODE_OPTIONS: "" }
	});
	return JSON.parse(out.toString()) as string[];
}

/* eslint-disable @typescript-eslint/no-explicit-any -- manifests are walked as plain JSON */
type Pod = { spec: any; metadata?: any };
const workloads = (objects: K8sObject[]) => objects.filter(o => o.kind === "Deployment" || o.kind === "StatefulSet") as Array<K8sObject & { spec: any }>;
const podOf = (o: K8sObject & { spec: any }): Pod => o.spec.template;
const find = (objects: K8sObject[], kind: string, name: string) => objects.find(o => o.kind === kind && o.metadata.name === name) as (K8sObject & Record<string, any>) | undefined;

/** KEDA's ScaledObject is not in kubernetes-models: the fields used here, strictly. */
const scaledObjectSchema = {
	type: "object",
	additionalProperties: false,
	required: ["apiVersion", "kind", "metadata", "spec"],
	properties: {
		apiVersion: { const: "keda.sh/v1alpha1" },
		kind: { const: "ScaledObject" },
		metadata: { type: "object", required: ["name"], additionalProperties: false, properties: { name: { type: "string" }, namespace: { type: "string" } } },
		spec: {
			type: "object",
			additionalProperties: false,
			required: ["scaleTargetRef", "triggers"],
			properties: {
				scaleTargetRef: { type: "object", additionalProperties: false, required: ["name"], properties: { name: { type: "string" } } },
				minReplicaCount: { type: "integer", minimum: 0 },
				maxReplicaCount: { type: "integer", minimum: 1 },
				pollingInterval: { type: "integer", minimum: 1 },
				cooldownPeriod: { type: "integer", minimum: 0 },
				triggers: {
					type: "array",
					minItems: 1,
					items: {
						type: "object",
						additionalProperties: false,
						required: ["type", "metadata"],
						properties: {
							type: { const: "nats-jetstream" },
							metadata: {
								type: "object",
								additionalProperties: false,
								required: ["natsServerMonitoringEndpoint", "account", "stream", "consumer", "lagThreshold"],
								properties: {
									natsServerMonitoringEndpoint: { type: "string", pattern: "^[a-z0-9.-]+:\\d+$" },
									account: { type: "string" },
									stream: { type: "string" },
									consumer: { type: "string" },
									lagThreshold: { type: "string", pattern: "^\\d+$" }
								}
							}
						}
					}
				}
			}
		}
	}
};

describe.each(OVERLAYS)("the %s overlay", overlay => {
	const objects = rendered[overlay];

	it("passes the Kubernetes schemas with no unknown field", () => {
		const core = objects.filter(o => !isKeda(o));
		const strict = new StrictFieldChecker(core);
		const validateScaledObject = new Ajv({ allErrors: true }).compile(scaledObjectSchema);
		const problems = schemaProblems(core);
		for (const object of objects) {
			const name = `${object.kind} ${object.metadata.name}`;
			if (isKeda(object)) {
				if (!validateScaledObject(object)) problems.push(`${name}: ${JSON.stringify(validateScaledObject.errors)}`);
				continue;
			}
			for (const field of strict.unknownFields(object)) problems.push(`${name}: unknown field ${field}`);
		}
		expect(problems).toEqual([]);
		expect(objects.length).toBeGreaterThan(40);
	}, 60_000);

	it("runs every service in its own Deployment of the image, with node as PID 1", () => {
		for (const service of KNOWN_SERVICES) {
			const deployment = find(objects, "Deployment", service);
			expect({ service, found: deployment !== undefined }).toEqual({ service, found: true });
			const [container] = podOf(deployment as any).spec.containers;
			expect(container.image).toBe("chatbot-builder:1.0.0");
			expect(container.command).toBeUndefined(); // the image's CMD: node dist/bin/start.js, never npm
			expect(container.env).toContainEqual({ name: "SERVICES", value: service });
			expect(container.envFrom).toEqual([{ configMapRef: { name: "chatbot-builder" } }, { secretRef: { name: "chatbot-builder" } }]);
		}
		expect(objects.every(o => o.metadata.namespace === "chatbots")).toBe(true);
	});

	it("gives every container probes and a locked-down security context, and every workload a disruption budget", () => {
		const config = find(objects, "ConfigMap", "chatbot-builder")?.data as Record<string, string>;
		const drainSeconds = Number(config.DRAIN_DELAY_SECONDS) + Number(config.DRAIN_TIMEOUT_SECONDS);
		const budgets = objects.filter(o => o.kind === "PodDisruptionBudget") as Array<K8sObject & { spec: any }>;
		for (const workload of workloads(objects)) {
			const name = `${workload.kind} ${workload.metadata.name}`;
			const pod = podOf(workload);
			expect({ name, pod: pod.spec.securityContext }).toMatchObject({ name, pod: { runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } } });
			for (const container of pod.spec.containers) {
				expect({ name, probes: [container.startupProbe, container.livenessProbe, container.readinessProbe].map(Boolean) }).toEqual({ name, probes: [true, true, true] });
				expect({ name, security: container.securityContext }).toEqual({
					name,
					security: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ["ALL"] } }
				});
			}
			const labels = pod.metadata.labels as Record<string, string>;
			const budget = budgets.find(b => Object.entries(b.spec.selector.matchLabels as Record<string, string>).every(([k, v]) => labels[k] === v));
			expect({ name, budget: budget?.metadata.name }).toEqual({ name, budget: expect.any(String) });
			if (labels.app === "chatbot-builder") {
				expect({ name, grace: pod.spec.terminationGracePeriodSeconds > drainSeconds }).toEqual({ name, grace: true });
				const [container] = pod.spec.containers;
				expect(container.readinessProbe.httpGet).toEqual({ path: "/readyz", port: "ops" });
				expect(container.livenessProbe.httpGet).toEqual({ path: "/livez", port: "ops" });
				expect(container.ports).toContainEqual({ name: "ops", containerPort: Number(config.OPS_PORT) });
			}
		}
	});

	it("scales crawler, extractor and trainer on their JetStream consumer lag", () => {
		const namespace = brokerOptions(loadConfig({})).namespace as string;
		const streams = { crawler: SITE_CRAWL_CHANNEL, extractor: EXTRACTION_CHANNEL, trainer: TRAINING_CHANNEL };
		for (const [worker, channel] of Object.entries(streams)) {
			const scaled = find(objects, "ScaledObject", worker) as any;
			expect(scaled.spec.scaleTargetRef.name).toBe(worker);
			expect(find(objects, "Deployment", worker)).toBeDefined();
			expect(find(objects, "HorizontalPodAutoscaler", worker)).toBeUndefined(); // one autoscaler per Deployment
			const trigger = scaled.spec.triggers[0].metadata;
			// @moleculer/channels names the stream <namespace>_<channel> and the durable consumer after the group.
			expect(trigger).toMatchObject({ stream: `${namespace}_${channel.replace(/\./g, "_")}`, consumer: worker, natsServerMonitoringEndpoint: "nats.chatbots.svc.cluster.local:8222" });
		}
	});

	it("holds a configuration the services accept once the Secret is filled, and refuses the example Secret", () => {
		const config = find(objects, "ConfigMap", "chatbot-builder")?.data as Record<string, string>;
		const [example] = readYamlObjects(path.join(K8S, "secret.example.yaml")) as Array<K8sObject & { stringData: Record<string, string> }>;
		const filled = {
			...example.stringData,
			MONGO_URI: "mongodb://mongodb-0.mongodb:27017/chatbots?replicaSet=rs0",
			SIGNING_SECRET: "x".repeat(48),
			CHANNELS_KEY: Buffer.alloc(32, 7).toString("base64"),
			S3_ACCESS_KEY_ID: "uploads",
			S3_SECRET_ACCESS_KEY: "uploads-secret"
		};
		const accepted = loadConfig({ ...config, ...filled, SERVICES: "gateway" });
		expect(accepted).toMatchObject({ transporter: "nats://nats:4222", ops: { port: 9090 }, jetstream: { replicas: overlay === "ha" ? 3 : 1 } });
		expect(() => loadConfig({ ...config, ...example.stringData })).toThrow(ConfigError);
		expect(() => loadConfig({ ...config, ...example.stringData })).toThrow(/CHANGE_ME/);
		// The example Secret is never part of what `kubectl apply -k` applies.
		expect(objects.filter(o => o.kind === "Secret")).toEqual([]);
	});
});

it("the ha overlay runs three NATS servers and three MongoDB members, two pods of each service", () => {
	const ha = rendered.ha;
	expect((find(ha, "StatefulSet", "nats") as any).spec.replicas).toBe(3);
	expect((find(ha, "ConfigMap", "nats-config") as any).data["nats.conf"]).toContain("nats://nats-2.nats-headless:6222");
	expect((find(ha, "StatefulSet", "mongodb") as any).spec.replicas).toBe(3);
	expect((find(ha, "Job", "mongodb-init") as any).spec.template.spec.containers[0].env).toContainEqual({ name: "MONGO_MEMBERS", value: "3" });
	for (const service of KNOWN_SERVICES.filter(s => s !== "janitor")) expect({ service, replicas: (find(ha, "Deployment", service) as any).spec.replicas }).toEqual({ service, replicas: 2 });
	expect((find(ha, "Deployment", "janitor") as any).spec.replicas).toBe(1);
	expect((find(rendered.small, "StatefulSet", "nats") as any).spec.replicas).toBe(1);
});

it("the checks can fail: a wrong type and a misspelt field are both reported", () => {
	const wrongType = structuredClone(find(rendered.small, "Deployment", "chat")) as any;
	wrongType.spec.replicas = "two";
	expect(schemaProblems([wrongType])).toEqual([expect.stringMatching(/^Deployment chat: .*replicas must be integer/)]);

	const deployment = structuredClone(find(rendered.small, "Deployment", "chat")) as any;
	deployment.spec.template.spec.containers[0].readinesProbe = deployment.spec.template.spec.containers[0].readinessProbe;
	deployment.spec.template.metadata.labels.extra = "labels take any key";
	expect(new StrictFieldChecker([deployment]).unknownFields(deployment)).toEqual([".spec.template.spec.containers[0].readinesProbe"]);
	expect(all.length).toBe(rendered.small.length + rendered.ha.length);
});
