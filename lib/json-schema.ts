/**
 * JSON Schemas that carry their TypeScript type, so a published schema and the type of the values
 * checked against it come from one definition (`Infer<typeof SCHEMA>`). Only what the project's
 * schemas use: strings, integers, booleans, enums, arrays and closed objects.
 */

export type JsonSchema = { [keyword: string]: unknown };

/** A schema whose values have type `T` (a phantom: nothing of `T` exists at run time). */
export type Typed<T> = JsonSchema & { readonly __type?: T };

export type Infer<S> = S extends Typed<infer T> ? T : never;

/** The shape MCP requires of `inputSchema` and `outputSchema`: an object schema at the root. */
export interface ObjectSchema extends JsonSchema {
	type: "object";
	properties: Record<string, JsonSchema>;
	required?: string[];
	additionalProperties?: boolean;
}

type Props = Record<string, Typed<unknown>>;
type Simplify<T> = { [K in keyof T]: T[K] };
type ObjectOf<P extends Props, O extends keyof P> = Simplify<{ [K in Exclude<keyof P, O>]: Infer<P[K]> } & { [K in O]?: Infer<P[K]> }>;

const described = <T>(schema: JsonSchema, description?: string): Typed<T> => (description === undefined ? schema : { ...schema, description });

export const schema = {
	string: (description?: string, extra: JsonSchema = {}): Typed<string> => described({ type: "string", ...extra }, description),
	uri: (description?: string): Typed<string> => described({ type: "string", format: "uri" }, description),
	dateTime: (description?: string): Typed<string> => described({ type: "string", format: "date-time" }, description),
	count: (description?: string): Typed<number> => described({ type: "integer", minimum: 0 }, description),
	boolean: (description?: string): Typed<boolean> => described({ type: "boolean" }, description),
	enum: <const V extends readonly string[]>(values: V, description?: string): Typed<V[number]> => described({ type: "string", enum: [...values] }, description),
	array: <T>(items: Typed<T>, description?: string): Typed<T[]> => described({ type: "array", items }, description),

	/** A closed object (no other properties): every property is required except those named in `optional`. */
	object<P extends Props, O extends keyof P & string = never>(properties: P, optional: readonly O[] = [], description?: string): Typed<ObjectOf<P, O>> & ObjectSchema {
		const required = Object.keys(properties).filter(key => !(optional as readonly string[]).includes(key));
		const result: ObjectSchema = { type: "object", properties, required, additionalProperties: false };
		if (description !== undefined) result.description = description;
		return result as Typed<ObjectOf<P, O>> & ObjectSchema;
	}
};
