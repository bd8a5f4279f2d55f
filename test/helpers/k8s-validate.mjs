// Validates Kubernetes objects with the kubernetes-models validators (generated from the
// Kubernetes OpenAPI schemas), in a plain Node process: the package is ESM-only, which Jest's
// module sandbox loads unreliably. Reads a JSON array of objects on stdin, writes a JSON array of
// problems ("<kind> <name>: <message>") on stdout.
const input = JSON.parse(await new Response(process.stdin).text());
const problems = [];
for (const object of input) {
	const name = `${object.kind} ${object.metadata?.name}`;
	let models;
	try {
		models = await import(`kubernetes-models/${object.apiVersion}/${object.kind}`);
	} catch {
		problems.push(`${name}: no model for ${object.apiVersion} ${object.kind}`);
		continue;
	}
	try {
		new models[object.kind](object).validate();
	} catch (err) {
		problems.push(`${name}: ${err.message}`);
	}
}
process.stdout.write(JSON.stringify(problems));
