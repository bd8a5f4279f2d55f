import { ConfigError, loadConfig } from "../../config";

describe("loadConfig", () => {
	it("runs with no configuration at all (embedded defaults)", () => {
		const config = loadConfig({});
		expect(config.port).toBe(3000);
		expect(config.publicUrl).toBe("http://localhost:3000");
		expect(config.transporter).toBeUndefined();
		expect(config.redisUrl).toBeUndefined();
		expect(config.mongoUri).toBeUndefined();
		expect(config.trustProxy).toBe(0);
		expect(config.crawl.allowPrivate).toBe(false);
		expect(config.services).toEqual([]);
		expect(Object.isFrozen(config)).toBe(true);
		expect(Object.isFrozen(config.crawl)).toBe(true);
	});

	it("reads the documented variables", () => {
		const config = loadConfig({
			PORT: "8080",
			PUBLIC_URL: "https://bots.example.com/",
			TRANSPORTER: "nats://nats:4222",
			MONGO_URI: "mongodb://mongo:27017/chatbots",
			QDRANT_URL: "http://qdrant:6333",
			S3_BUCKET: "uploads",
			S3_ACCESS_KEY_ID: "minio",
			S3_SECRET_ACCESS_KEY: "minio-secret",
			SERVICES: "gateway, mcp",
			TRUST_PROXY: "2",
			REDIS_URL: "redis://redis:6379",
			CRAWL_ALLOW_PRIVATE: "true",
			LLM_URL: "http://llm:8000/v1/",
			LLM_MODEL: "small"
		});
		expect(config.port).toBe(8080);
		expect(config.publicUrl).toBe("https://bots.example.com");
		expect(config.services).toEqual(["gateway", "mcp"]);
		expect(config.trustProxy).toBe(2);
		expect(config.crawl.allowPrivate).toBe(true);
		expect(config.llm).toEqual({ url: "http://llm:8000/v1", model: "small", apiKey: undefined });
	});

	it.each([
		[{ PORT: "eighty" }, "PORT"],
		[{ PORT: "70000" }, "PORT"],
		[{ PUBLIC_URL: "not a url" }, "PUBLIC_URL"],
		[{ TRANSPORTER: "http://nats" }, "TRANSPORTER"],
		[{ SERVICES: "gateway,nonsense" }, "SERVICES"],
		[{ TRUST_PROXY: "-1" }, "TRUST_PROXY"],
		[{ CRAWL_ALLOW_PRIVATE: "maybe" }, "CRAWL_ALLOW_PRIVATE"],
		[{ LLM_URL: "http://llm" }, "LLM_MODEL"],
		[{ S3_BUCKET: "b" }, "S3_ACCESS_KEY_ID"],
		[{ SIGNING_SECRET: "short" }, "SIGNING_SECRET"],
		[{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
		// Processes over a bus with embedded stores would each keep their own data.
		[{ TRANSPORTER: "nats://nats:4222" }, "MONGO_URI"],
		[{ TRANSPORTER: "nats://nats:4222", MONGO_URI: "mongodb://mongo/db" }, "QDRANT_URL"],
		[{ TRANSPORTER: "nats://nats:4222", MONGO_URI: "mongodb://mongo/db", QDRANT_URL: "http://qdrant:6333" }, "S3_BUCKET"],
		[{ TRANSPORTER: "nats://nats:4222", SINGLE_MACHINE: "perhaps" }, "SINGLE_MACHINE"],
		// The example Secret's placeholders never pass, whatever the variable.
		[{ SIGNING_SECRET: "CHANGE_ME-at-least-32-random-characters-here" }, "SIGNING_SECRET"],
		[{ MONGO_URI: "mongodb://user:CHANGE_ME@mongo:27017/chatbots" }, "MONGO_URI"],
		[{ STRIPE_SECRET_KEY: "CHANGE_ME" }, "STRIPE_SECRET_KEY"],
		[{ OPS_PORT: "http" }, "OPS_PORT"],
		[{ HEARTBEAT_INTERVAL_SECONDS: "5", HEARTBEAT_TIMEOUT_SECONDS: "5" }, "HEARTBEAT_TIMEOUT_SECONDS"]
	])("refuses %j naming %s", (env, variable) => {
		let caught: unknown;
		try {
			loadConfig(env);
		} catch (err) {
			caught = err;
		}
		expect(caught).toBeInstanceOf(ConfigError);
		expect((caught as ConfigError).variable).toBe(variable);
		expect((caught as ConfigError).message).toContain(variable);
	});

	it("allows services over a bus with embedded stores on one machine when SINGLE_MACHINE=true", () => {
		const config = loadConfig({ TRANSPORTER: "nats://127.0.0.1:4222", SINGLE_MACHINE: "true" });
		expect(config.transporter).toBe("nats://127.0.0.1:4222");
		expect(config.mongoUri).toBeUndefined();
	});

	it("reads the operations settings, with probes off and a 1 s / 3 s heartbeat by default", () => {
		expect(loadConfig({}).ops).toEqual({ port: undefined, drainDelaySeconds: 0, drainTimeoutSeconds: 25, heartbeatIntervalSeconds: 1, heartbeatTimeoutSeconds: 3 });
		expect(loadConfig({ OPS_PORT: "9090", DRAIN_DELAY_SECONDS: "5", JETSTREAM_REPLICAS: "3" })).toMatchObject({ ops: { port: 9090, drainDelaySeconds: 5 }, jetstream: { replicas: 3 } });
	});
});
