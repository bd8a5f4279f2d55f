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
		[{ LOG_LEVEL: "loud" }, "LOG_LEVEL"]
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
});
