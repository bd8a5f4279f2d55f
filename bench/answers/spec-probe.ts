/**
 * A check outside the benchmark: paraphrased questions over seven sets of three to five pages of the Model
 * Context Protocol's documentation, each set one chatbot as a crawl of five pages would make it:
 * set A (lifecycle, transports, cancellation, ping, progress; the first written), set B (tools,
 * resources, prompts, roots, elicitation; written at stop 39 from the pages alone, before the
 * answerer was run on them), set C (architecture, sampling, logging, completion, pagination;
 * written the same way at stop 40, after set B had been used to choose that stop's changes), set D
 * (the specification's introduction, the base protocol overview, authorization, the server
 * features overview and the key changes; written at the end of stop 40, run once, nothing changed
 * for it), set E (five of the guides beside the specification: versioning, the Inspector,
 * debugging, server concepts, the introduction; written at stop 41 before any change) and set F
 * (five more guides: SDKs, agent skills, remote servers, client concepts, local servers; written
 * at stop 41 after its first change) and set G (three long guides: the architecture overview,
 * client best practices, security best practices; written at the end of stop 41, run once,
 * nothing changed for it). Normative
 * prose ("The client MUST…", nested lists of requirements, JSON examples between the sentences)
 * is what the benchmark's corpora hold little of; the guides add advice lists, tables and
 * commands. The pages are not shipped with the project or installed by npm: they are read at run
 * time from a checkout of github.com/modelcontextprotocol/modelcontextprotocol. Nothing is fitted
 * on these questions; they tell whether a change to the answerer suits more than the benchmark's
 * corpora.
 *
 * Run: `npx tsx bench/answers/spec-probe.ts <checkout>` (`-- --verbose` lists every miss with the
 * passage chosen and its probability; `--candidates=t02,x19` lists those questions' first five
 * candidate passages (`TOPN=n`: n) with their features, as ranker-misses.ts does for the dev
 * split). The questions and their facts are written here; the facts are words of the pages,
 * matched as the benchmark matches them (bench/answers/evaluate.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { weighEvidence } from "../../lib/answer/extractive";
import { lexiconFor } from "../../lib/answer/lexicon";
import { questionQuery, RETRIEVE_LIMIT } from "../../lib/answer/retrieval-query";
import { readableText } from "../../lib/crawl/readable-text";
import { chunkSources, TextSource } from "../../lib/retrieval/chunker";
import { GenerationIndex } from "../../lib/retrieval/embedded-generation";
import { vectorizeChunks } from "../../lib/retrieval/vectorize";
import { splitFrontMatter } from "../../lib/site/front-matter";
import { printMarkdownTable } from "../table";
import { pageHtml } from "./corpus";
import type { Asked } from "./asked";
import type { DevQuestion } from "./dev-set";
import { grade, Graded, holdsFact, summaryColumns } from "./evaluate";
import { describePassage } from "./describe";
import { baseline, current, SystemResult } from "./systems";

const SPEC_VERSION = "2025-06-18";

/** [id, question, facts (null: out of scope), the page or pages (space-separated) holding them]. */
type Question = [string, string, string[] | null, string?];

interface ProbeSet {
	name: string;
	/** The folder of the checkout the pages are under; the specification's by default. */
	root?: string;
	/** Page key → file under the root. */
	pages: Record<string, string>;
	questions: Question[];
}

const SETS: ProbeSet[] = [
	{
		name: "A: lifecycle, transports, cancellation, ping, progress",
		pages: {
			lifecycle: "basic/lifecycle.mdx",
			transports: "basic/transports.mdx",
			cancellation: "basic/utilities/cancellation.mdx",
			ping: "basic/utilities/ping.mdx",
			progress: "basic/utilities/progress.mdx"
		},
		questions: [
			["t01", "With stdio, which signal comes after SIGTERM when the server refuses to exit?", ["SIGKILL"], "lifecycle"],
			["t02", "How are messages separated from each other on stdio?", ["newlines"], "transports"],
			["t03", "Where may a stdio server write its logs?", ["stderr|standard error"], "transports"],
			["t04", "What must the server never print to stdout?", ["not a valid MCP message"], "transports"],
			["t05", "What status does the server return when it accepts a notification sent by POST?", ["202"], "transports"],
			["t06", "Which content types must the client list in the Accept header when posting?", ["text/event-stream"], "transports"],
			["t07", "What should a server reply to a GET if it offers no SSE stream?", ["405"], "transports"],
			["t08", "Which header does a client send to resume a broken stream?", ["Last-Event-ID"], "transports"],
			["t09", "What characters may a session ID contain?", ["visible ASCII"], "transports"],
			["t10", "What does the server answer for a session it has already terminated?", ["404"], "transports"],
			["t11", "How does a client end a session it no longer needs?", ["DELETE"], "transports"],
			["t12", "Which protocol version should the server assume when the version header is absent?", ["2025-03-26"], "transports"],
			["t13", "What happens if the version header holds an unsupported version?", ["400"], "transports"],
			["t14", "Why must servers check the Origin header?", ["DNS rebinding"], "transports"],
			["t15", "Which address should a local server bind to?", ["127.0.0.1|localhost"], "transports"],
			["t16", "Should a dropped connection be taken as the client cancelling?", ["SHOULD NOT be interpreted"], "transports"],
			["t17", "Can a server broadcast one message on several streams?", ["MUST NOT broadcast"], "transports"],
			["t18", "How does an old-style server announce itself to a client probing with GET?", ["endpoint"], "transports"],
			["l01", "What is the very first thing client and server must do together?", ["initialization"], "lifecycle"],
			["l02", "What does the client send once initialization has succeeded?", ["initialized"], "lifecycle"],
			["l03", "Which requests may the client send before the server answers initialize?", ["ping"], "lifecycle"],
			["l04", "What should the client do if it does not support the version the server picked?", ["disconnect"], "lifecycle"],
			["l05", "Which capability lets a server offer prompt templates?", ["prompts"], "lifecycle"],
			["l06", "How is shutdown signalled over HTTP?", ["closing the associated HTTP connection"], "lifecycle"],
			["l07", "What should the sender do when a request times out?", ["cancellation"], "lifecycle"],
			["l08", "Can a progress notification reset a request's timeout?", ["reset the timeout"], "lifecycle"],
			["l09", "Which error code does the example use for an unsupported protocol version?", ["-32602"], "lifecycle"],
			["l10", "What are the three phases of a connection?", ["Initialization", "Operation", "Shutdown"], "lifecycle"],
			["c01", "Which notification cancels a request in progress?", ["notifications/cancelled"], "cancellation"],
			["c02", "May a client cancel the initialize request?", ["MUST NOT"], "cancellation"],
			["c03", "What should a receiver do after a cancellation arrives?", ["Stop processing"], "cancellation"],
			["c04", "What happens to invalid cancellation notifications?", ["ignored"], "cancellation"],
			["c05", "What should the sender do with a response that comes after it cancelled?", ["ignore"], "cancellation"],
			["p01", "What parameters does a ping request carry?", ["no parameters"], "ping"],
			["p02", "How must the other side reply to a ping?", ["empty response"], "ping"],
			["p03", "What may the sender do when a ping gets no reply?", ["stale|Terminate|reconnection"], "ping"],
			["p04", "How should timeouts of pings be treated?", ["connection failures"], "ping"],
			["g01", "Where does a requester put the token to get progress updates?", ["request metadata|_meta"], "progress"],
			["g02", "What types may a progress token be?", ["string or integer"], "progress"],
			["g03", "Must the progress value go up each time?", ["MUST increase"], "progress"],
			["g04", "Can progress values be fractional?", ["floating point"], "progress"],
			["g05", "When must progress notifications stop?", ["after completion"], "progress"],
			["o01", "How many retries does the client make when a POST fails?", null],
			["o02", "What port does the MCP endpoint listen on by default?", null],
			["o03", "Which signal does the server send to the client on shutdown?", null],
			["o04", "How long is a session ID valid?", null],
			["o05", "How often should pings be sent, in seconds?", null],
			["o06", "What is the maximum size of a JSON-RPC message?", null],
			["o07", "Which compression does Streamable HTTP use?", null],
			["o08", "Can a cancelled request be resumed later?", null],
			["o09", "What does the progress notification's percent field mean?", null],
			["o10", "Who maintains the WebSocket transport?", null],
			["o11", "How do I authenticate with an API key over stdio?", null],
			["o12", "What is the default timeout for requests in seconds?", null]
		]
	},
	{
		// Written at stop 39 from the pages alone, before the answerer was run on them.
		name: "B: tools, resources, prompts, roots, elicitation",
		pages: {
			tools: "server/tools.mdx",
			resources: "server/resources.mdx",
			prompts: "server/prompts.mdx",
			roots: "client/roots.mdx",
			elicitation: "client/elicitation.mdx"
		},
		questions: [
			["x01", "Is it the model or the user that decides when a tool is used?", ["model-controlled"], "tools"],
			["x02", "What must a server declare if it offers tools?", ["tools capability"], "tools"],
			["x03", "Which request returns the tools a server has?", ["tools/list"], "tools"],
			["x04", "How does a client run a tool?", ["tools/call"], "tools"],
			["x05", "Which notification tells clients that the set of tools has changed?", ["notifications/tools/list_changed"], "tools"],
			["x06", "How does a tool report that its own execution failed?", ["isError"], "tools"],
			["x07", "Should a client trust the annotations a tool comes with?", ["untrusted"], "tools"],
			["x08", "In which field does a tool put structured results?", ["structuredContent"], "tools"],
			["x09", "What must the server do when a tool declares an output schema?", ["conform to this schema"], "tools"],
			["x10", "What should a client show the user before it calls the server?", ["tool inputs"], "tools"],
			["xo1", "How long may a tool run before the client has to give up?", null],
			["xo2", "How many tools can one server offer at most?", null],
			["xo3", "What error does the server return when a tool is called too often?", null],
			["x11", "Are resources chosen by the model, by the user or by the application?", ["application-driven"], "resources"],
			["x12", "Which two optional features can the resources capability offer?", ["subscribe", "listChanged"], "resources"],
			["x13", "How does a client fetch what a resource contains?", ["resources/read"], "resources"],
			["x14", "What lets a server offer resources that take parameters?", ["URI templates"], "resources"],
			["x15", "Between which values does a resource's priority lie?", ["0.0 to 1.0"], "resources"],
			["x16", "In what format is a resource's last modification time written?", ["ISO 8601"], "resources"],
			["x17", "When should a server give a resource an https URI?", ["fetch and load the resource directly"], "resources"],
			["x18", "Which error code says a resource does not exist?", ["-32002"], "resources"],
			["x19", "Which audiences can a resource annotation name?", ["user", "assistant"], "resources"],
			["xo4", "How large may a resource's binary contents be?", null],
			["xo5", "Can a client change a resource's contents through the protocol?", null],
			["x20", "Are prompts picked by the user or by the model?", ["user-controlled"], "prompts"],
			["x21", "How are prompts usually started from a user interface?", ["user-initiated commands|slash commands"], "prompts"],
			["x22", "Which request fetches one particular prompt?", ["prompts/get"], "prompts"],
			["x23", "Which roles can a message in a prompt have?", ["user", "assistant"], "prompts"],
			["x24", "How must image data in a prompt message be encoded?", ["base64"], "prompts"],
			["x25", "What error should a server return when required prompt arguments are missing?", ["-32602"], "prompts"],
			["x26", "How can a prompt's arguments be filled in automatically?", ["completion API"], "prompts"],
			["x27", "What must a resource embedded in a prompt include?", ["resource URI", "MIME type"], "prompts"],
			["xo6", "How many arguments may a single prompt take?", null],
			["xo7", "Can two servers share one prompt?", null],
			["x28", "What do roots mark out for a server?", ["boundaries"], "roots"],
			["x29", "Which request does a server send to get the roots?", ["roots/list"], "roots"],
			["x30", "What kind of URI must a root be?", ["file://"], "roots"],
			["x31", "Which error should a client return when it has no support for roots?", ["-32601"], "roots"],
			["x32", "Why must a client validate the URIs of its roots?", ["path traversal"], "roots"],
			["x33", "What should a client get from users before exposing roots?", ["consent"], "roots"],
			["x34", "Does a root need a name?", ["Optional"], "roots"],
			["x35", "When does a client have to notify the server about its roots?", ["roots change"], "roots"],
			["xo8", "How many roots may a client expose?", null],
			["xo9", "Can a root be protected with a password?", null],
			["x36", "What must a server never ask for through elicitation?", ["sensitive information"], "elicitation"],
			["x37", "Which request does a server send to ask the user for information?", ["elicitation/create"], "elicitation"],
			["x38", "What kinds of properties can a requested schema hold?", ["primitive"], "elicitation"],
			["x39", "Which string formats can an elicitation schema ask for?", ["email", "date-time"], "elicitation"],
			["x40", "What are the three ways a user can respond to an elicitation?", ["Accept", "Decline", "Cancel"], "elicitation"],
			["x41", "What is it called when the user closes the dialog without choosing?", ["Cancel"], "elicitation"],
			["x42", "Is there any content in the response when the user declines?", ["typically omitted"], "elicitation"],
			["x43", "Can a requested schema hold arrays of objects?", ["not supported"], "elicitation"],
			["x44", "Is elicitation a settled part of the protocol?", ["may evolve"], "elicitation"],
			["xo10", "How long does a client wait for the user before an elicitation expires?", null],
			["xo11", "In which languages can elicitation forms be shown?", null]
		]
	},
	{
		name: "C: architecture, sampling, logging, completion, pagination",
		pages: {
			architecture: "architecture/index.mdx",
			sampling: "client/sampling.mdx",
			logging: "server/utilities/logging.mdx",
			completion: "server/utilities/completion.mdx",
			pagination: "server/utilities/pagination.mdx"
		},
		questions: [
			["y01", "How many servers does each client talk to?", ["1:1|one stateful session per server"], "architecture"],
			["y02", "Who makes the user's authorization decisions?", ["host process"], "architecture"],
			["y03", "Can one server peek into another server?", ["see into|isolation|controlled by the host"], "architecture"],
			["y04", "Where does the full chat history live?", ["stays with the host"], "architecture"],
			["y05", "What protocol is MCP built on?", ["JSON-RPC"], "architecture"],
			["y06", "When do clients and servers declare what features they support?", ["during initialization"], "architecture"],
			["y07", "What must a server declare before it can send resource subscription notifications?", ["subscription support"], "architecture"],
			["y08", "What does a client have to do before servers can use sampling through it?", ["declare"], "sampling architecture"],
			["y09", "Can servers be remote, or only local processes?", ["remote services"], "architecture"],
			["y10", "Which component creates the clients?", ["created by the host|Creates and manages multiple client instances"], "architecture"],
			["y11", "Do servers and clients have to evolve together?", ["evolve independently"], "architecture"],
			["y12", "Does a server need its own model API key to use sampling?", ["no server API keys"], "sampling"],
			["y13", "Which request does a server send to get a model generation?", ["sampling/createMessage"], "sampling"],
			["y14", "How many priority values can a server give for model selection?", ["three"], "sampling"],
			["y15", "What range do the priority values fall in?", ["0-1"], "sampling"],
			["y16", "Which priority should a server raise to get cheaper models?", ["costPriority"], "sampling"],
			["y17", "Which priority favours faster models?", ["speedPriority"], "sampling"],
			["y18", "Why can't a server just ask for a model by its name?", ["may not have access"], "sampling"],
			["y19", "How are model hints matched against model names?", ["substrings"], "sampling"],
			["y20", "Who makes the final choice of model?", ["clients make final model selection"], "sampling"],
			["y21", "Should a person be able to refuse a sampling request?", ["human in the loop"], "sampling"],
			["y22", "What kinds of content can sampling messages hold?", ["Text", "Image", "Audio"], "sampling"],
			["y23", "Which standard do the log levels come from?", ["syslog|RFC 5424"], "logging"],
			["y24", "What is the most severe log level?", ["emergency"], "logging"],
			["y25", "Which request sets the minimum log level?", ["logging/setLevel"], "logging"],
			["y26", "Which notification carries log messages?", ["notifications/message"], "logging"],
			["y27", "What error should a server return for a bad log level?", ["-32602"], "logging"],
			["y28", "What must never appear in log messages?", ["Credentials|secrets"], "logging"],
			["y29", "What does a server have to declare before it sends logs?", ["logging capability"], "logging"],
			["y30", "Which level is meant for deprecated feature usage?", ["warning"], "logging"],
			["y31", "At most how many suggestions can one completion response hold?", ["100"], "completion"],
			["y32", "Which request asks a server for completion suggestions?", ["completion/complete"], "completion"],
			["y33", "What two kinds of reference can a completion point to?", ["ref/prompt", "ref/resource"], "completion"],
			["y34", "How should a client pass arguments it has already filled in?", ["context.arguments"], "completion"],
			["y35", "What should clients do about rapid completion requests?", ["Debounce"], "completion"],
			["y36", "How are suggestions ordered?", ["relevance"], "completion"],
			["y37", "Does MCP paginate with page numbers?", ["opaque cursor|instead of numbered pages"], "pagination"],
			["y38", "Who decides the page size?", ["determined by the server"], "pagination"],
			["y39", "How does a client know there are no more results?", ["nextCursor"], "pagination"],
			["y40", "Can a client keep a cursor and reuse it in a later session?", ["persist"], "pagination"],
			["y41", "What error code does an invalid cursor produce?", ["-32602"], "pagination"],
			["y42", "Which list operations support pagination?", ["resources/list", "prompts/list", "tools/list"], "pagination"],
			["yo1", "What is the default page size?", null],
			["yo2", "How long does a pagination cursor stay valid?", null],
			["yo3", "Which log level is used by default?", null],
			["yo4", "How many log messages per second may a server send?", null],
			["yo5", "Which model does a client pick when no hints are given?", null],
			["yo6", "How much does a sampling request cost?", null],
			["yo7", "Which programming languages are servers written in?", null],
			["yo8", "How many clients can a host run at most?", null],
			["yo9", "What port does an MCP server listen on?", null],
			["yo10", "How long does the client wait for a sampling response?", null],
			["yo11", "Who wrote the syslog standard?", null]
		]
	},
	{
		name: "D: specification, overview, authorization, server features, key changes",
		pages: {
			specification: "index.mdx",
			overview: "basic/index.mdx",
			authorization: "basic/authorization.mdx",
			features: "server/index.mdx",
			changes: "changelog.mdx"
		},
		questions: [
			["z01", "Which message format does MCP use between hosts, clients and servers?", ["JSON-RPC"], "specification overview"],
			["z02", "Which older protocol inspired MCP?", ["Language Server Protocol"], "specification"],
			["z03", "Must a host ask the user before running a tool?", ["explicit user consent"], "specification"],
			["z04", "What three features can clients offer to servers?", ["Sampling", "Roots", "Elicitation"], "specification"],
			["z05", "Which parts of the protocol does every implementation have to support?", ["base protocol and lifecycle management"], "overview"],
			["z06", "May a request ID be null?", ["MUST NOT be"], "overview"],
			["z07", "Can a response carry both a result and an error?", ["MUST NOT"], "overview"],
			["z08", "What type must error codes be?", ["integers"], "overview"],
			["z09", "Does the receiver reply to a notification?", ["MUST NOT send a response"], "overview"],
			["z10", "Where should a stdio implementation get its credentials?", ["environment"], "overview authorization"],
			["z11", "Which field is reserved for attaching extra metadata?", ["_meta"], "overview"],
			["z12", "What is the source of truth for the protocol's messages?", ["TypeScript schema"], "overview specification"],
			["z13", "Is authorization required for every MCP implementation?", ["OPTIONAL"], "authorization"],
			["z14", "Which version of OAuth does the authorization build on?", ["OAuth 2.1"], "authorization"],
			["z15", "What role does a protected MCP server play in OAuth terms?", ["resource server"], "authorization"],
			["z16", "Which header tells a client where the resource metadata lives after a 401?", ["WWW-Authenticate"], "authorization"],
			["z17", "Why should clients register themselves dynamically?", ["without user interaction|may not know"], "authorization"],
			["z18", "What can a client do if the authorization server has no dynamic registration?", ["Hardcode a client ID|Present a UI"], "authorization"],
			["z19", "Which parameter names the server a token is meant for?", ["resource parameter"], "authorization"],
			["z20", "Can an access token be put in the query string?", ["MUST NOT be included in the URI query string"], "authorization"],
			["z21", "What status does an expired token get?", ["401"], "authorization"],
			["z22", "Which status code means the scopes are not enough?", ["403"], "authorization"],
			["z23", "Must redirect URIs use HTTPS?", ["localhost"], "authorization"],
			["z24", "What must public clients have done to their refresh tokens?", ["rotate"], "authorization"],
			["z25", "Which technique protects authorization codes from interception?", ["PKCE"], "authorization"],
			["z26", "How long should access tokens live?", ["short-lived"], "authorization"],
			["z27", "Who controls the prompts primitive?", ["User-controlled"], "features"],
			["z28", "What kind of data do resources provide?", ["Contextual data|Structured data"], "features"],
			["z29", "Which primitive is controlled by the model?", ["Tools"], "features"],
			["z30", "What is given as an example of a prompt?", ["Slash commands"], "features"],
			["z31", "Which JSON-RPC feature was removed in this revision?", ["batching"], "changes"],
			["z32", "Which header must carry the negotiated protocol version over HTTP?", ["MCP-Protocol-Version"], "changes"],
			["z33", "What was added so that name can stay a programmatic identifier?", ["title"], "changes"],
			["z34", "Which revision came before this one?", ["2025-03-26"], "changes"],
			["z35", "What new capability lets servers ask users for more information?", ["elicitation"], "changes specification"],
			["zo1", "How long is an authorization code valid?", null],
			["zo2", "Which OAuth grant type do servers use for machine-to-machine access?", null],
			["zo3", "How many tools can one server expose?", null],
			["zo4", "Which company created MCP?", null],
			["zo5", "What port does the authorization server listen on?", null],
			["zo6", "How often must refresh tokens be rotated?", null],
			["zo7", "Which programming languages have official MCP SDKs?", null],
			["zo8", "When will the next revision of the specification be released?", null],
			["zo9", "Can batching be turned back on with a flag?", null],
			["zo10", "What is the maximum length of a request ID?", null]
		]
	},
	{
		// Guides rather than the specification: explanatory prose, lists of advice, tables, commands.
		name: "E: versioning, inspector, debugging, server concepts, introduction (guides)",
		root: path.join("docs", "docs", SPEC_VERSION),
		pages: {
			versioning: "learn/versioning.mdx",
			inspector: "tools/inspector.mdx",
			debugging: "tools/debugging.mdx",
			concepts: "learn/server-concepts.mdx",
			intro: "getting-started/intro.mdx"
		},
		questions: [
			["e01", "What format do protocol version strings follow?", ["YYYY-MM-DD"], "versioning"],
			["e02", "Does the version number change when a backwards compatible update ships?", ["not be incremented"], "versioning"],
			["e03", "What does it mean when a revision is marked final?", ["will not be changed"], "versioning"],
			["e04", "How long does a deprecated feature stay in the specification before it can be dropped?", ["twelve months"], "versioning"],
			["e05", "At what point do client and server settle on a protocol version?", ["initialization"], "versioning"],
			["e06", "Can a server speak more than one protocol version?", ["multiple protocol versions"], "versioning"],
			["e07", "What can a client do when it finds no version the server is compatible with?", ["gracefully terminate"], "versioning"],
			["e08", "Do I need to install the Inspector before using it?", ["without requiring installation"], "inspector"],
			["e09", "How do I inspect a Python server published on PyPI?", ["uvx"], "inspector"],
			["e10", "What does the resources tab show about each resource?", ["metadata"], "inspector"],
			["e11", "Where do a server's logs appear in the Inspector?", ["Notifications pane"], "inspector"],
			["e12", "Which edge cases should I try with the Inspector?", ["Invalid inputs", "Concurrent operations"], "inspector"],
			["e13", "What do I do after rebuilding the server while testing iteratively?", ["Reconnect the Inspector"], "inspector"],
			["e14", "Where should a local stdio server write its logs?", ["stderr"], "debugging"],
			["e15", "Why must a local server avoid printing to standard output?", ["interfere with protocol operation"], "debugging"],
			["e16", "How many severity levels does MCP logging have?", ["eight"], "debugging"],
			["e17", "How can a client change the minimum log level while running?", ["logging/setLevel"], "debugging"],
			["e18", "Why should configuration files use absolute paths?", ["undefined|started from anywhere"], "debugging"],
			["e19", "How do I pass an API key to a server that Claude Desktop launches?", ["env key"], "debugging"],
			["e20", "What does error code -32602 mean?", ["Invalid params"], "debugging"],
			["e21", "Where are Claude Desktop's log files kept on a Mac?", ["Library/Logs/Claude"], "debugging"],
			["e22", "How do I open the developer tools in Claude Desktop on Windows?", ["Ctrl+Alt+I"], "debugging"],
			["e23", "Is closing the window enough after I change the server code?", ["not enough|fully quit"], "debugging"],
			["e24", "Where can I ask for help with MCP?", ["GitHub issues|GitHub discussions"], "debugging"],
			["e25", "What should a bug report include?", ["Log excerpts|Steps to reproduce"], "debugging"],
			["e26", "Who decides when a prompt is used?", ["user-controlled|explicit invocation"], "concepts"],
			["e27", "Which method runs a tool?", ["tools/call"], "concepts"],
			["e28", "How do applications typically let people pick a prompt?", ["Slash commands"], "concepts"],
			["e29", "What is used to validate a tool's inputs?", ["JSON Schema"], "concepts"],
			["e30", "Which operation lets a client watch a resource for changes?", ["resources/subscribe"], "concepts"],
			["e31", "What is a resource template?", ["dynamic URIs with parameters"], "concepts"],
			["e32", "Can a tool need the user's approval before it runs?", ["user consent|Approval dialogs"], "concepts"],
			["e33", "When someone types part of a city name into a forecast template, what might be suggested?", ["Paris|Park City"], "concepts"],
			["e34", "What everyday connector is MCP compared to?", ["USB-C"], "intro"],
			["e35", "How does MCP help developers?", ["reduces development time"], "intro"],
			["e36", "Which code editors support MCP?", ["Visual Studio Code|Cursor"], "intro"],
			["eo1", "What is the latest release number of the Inspector?", null],
			["eo2", "How much does the MCP Inspector cost?", null],
			["eo3", "Who maintains the Python SDK?", null],
			["eo4", "How many servers can the Inspector connect to at once?", null],
			["eo5", "Which port does the Inspector listen on by default?", null],
			["eo6", "When was the first version of the protocol released?", null],
			["eo7", "How do I export the Inspector's test results to a file?", null],
			["eo8", "Which log level is used by default?", null],
			["eo9", "How do I rotate Claude Desktop's log files?", null],
			["eo10", "Which airlines does the travel server support?", null]
		]
	},
	{
		name: "F: SDKs, agent skills, remote servers, client concepts, local servers (guides)",
		root: path.join("docs", "docs", SPEC_VERSION),
		pages: {
			sdk: "sdk.mdx",
			skills: "develop/build-with-agent-skills.mdx",
			remote: "develop/connect-remote-servers.mdx",
			clients: "learn/client-concepts.mdx",
			local: "develop/connect-local-servers.mdx"
		},
		questions: [
			["f01", "Which languages have a tier 1 SDK?", ["TypeScript", "Python"], "sdk"],
			["f02", "What decides which tier an SDK is in?", ["feature completeness"], "sdk"],
			["f03", "Does every SDK offer the same features?", ["same functionality"], "sdk"],
			["f04", "Is there an SDK for Swift?", ["swift-sdk"], "sdk"],
			["f05", "What are agent skills?", ["portable instruction sets"], "skills"],
			["f06", "Which skill packages a local server together with its runtime?", ["build-mcpb"], "skills"],
			["f07", "What comes with each skill besides its SKILL.md?", ["supporting material"], "skills"],
			["f08", "What will the skill ask me about before it writes any code?", ["What it connects to", "Who will use it"], "skills"],
			["f09", "Which deployment is the default for a server that wraps a cloud API?", ["Streamable HTTP"], "skills"],
			["f10", "When should I pick an MCP bundle?", ["touch the user's machine"], "skills"],
			["f11", "Which hosting platform does the reference skill have scaffolds for?", ["Cloudflare Workers"], "skills"],
			["f12", "How do I add the skills to Claude Code?", ["mcp-server-dev"], "skills"],
			["f13", "Where do remote MCP servers run?", ["internet"], "remote"],
			["f14", "Why are remote servers easier to use than local ones?", ["any MCP client"], "remote"],
			["f15", "What links Claude to a remote MCP server?", ["Custom Connectors"], "remote"],
			["f16", "In which part of Claude's settings do I add a remote server?", ["Connectors"], "remote"],
			["f17", "Which protocol must the server's address include?", ["https"], "remote"],
			["f18", "How do I bring a remote server's resources into a conversation?", ["paperclip icon"], "remote"],
			["f19", "Can I limit which tools Claude may use through a connector?", ["permissions"], "remote"],
			["f20", "How do remote servers usually check who I am?", ["OAuth"], "remote"],
			["f21", "What should I check before connecting to a remote server?", ["authenticity"], "remote"],
			["f22", "What is the difference between a host and a client?", ["protocol-level components|application users interact with"], "clients"],
			["f23", "How many servers does one client talk to?", ["one server"], "clients"],
			["f24", "Does elicitation ever ask for passwords?", ["never requests passwords"], "clients"],
			["f25", "What can a user do when a server asks for information through elicitation?", ["decline", "cancel"], "clients"],
			["f26", "Do roots stop a server from reading files outside them?", ["do not enforce security restrictions|not a security boundary"], "clients"],
			["f27", "Which URI scheme do roots use?", ["file://"], "clients"],
			["f28", "How is a server told that the roots changed?", ["roots/list_changed"], "clients"],
			["f29", "Why would a server use sampling rather than call a model itself?", ["paying for AI models"], "clients"],
			["f30", "Who reviews a sampling request before it reaches the model?", ["human-in-the-loop|User"], "clients"],
			["f31", "Which operating systems can run Claude Desktop?", ["macOS and Windows"], "local"],
			["f32", "What do I need installed to run the Filesystem Server?", ["Node.js"], "local"],
			["f33", "Where is the Claude Desktop configuration file kept on Windows?", ["%APPDATA%\\Claude\\claude_desktop_config.json"], "local"],
			["f34", "What does the -y flag in the configuration do?", ["Automatically confirms"], "local"],
			["f35", "Which release of Node.js is recommended?", ["LTS"], "local"],
			["f36", "What must I do after saving the configuration file?", ["restart"], "local"],
			["f37", "Which log file holds the errors of one particular server?", ["mcp-server-SERVERNAME.log"], "local"],
			["fo1", "How much does a tier 1 SDK cost?", null],
			["fo2", "Which SDK was released first?", null],
			["fo3", "Can I share a custom connector with my whole team?", null],
			["fo4", "How many remote servers can I connect at most?", null],
			["fo5", "What is the largest sampling request a client accepts?", null],
			["fo6", "Which port does the Filesystem Server listen on?", null],
			["fo7", "How do I uninstall the Filesystem Server?", null],
			["fo8", "How long may an elicitation request wait for the user?", null],
			["fo9", "How long does the skill's discovery phase take?", null],
			["fo10", "How do I write my own agent skill from scratch?", null]
		]
	},
	{
		name: "G: architecture overview, client best practices, security best practices (guides)",
		root: path.join("docs", "docs", SPEC_VERSION),
		pages: {
			architecture: "learn/architecture.mdx",
			practices: "develop/clients/client-best-practices.mdx",
			security: "tutorials/security/security_best_practices.mdx"
		},
		questions: [
			["w01", "How many clients does a host create for each server it connects to?", ["one MCP client for each MCP server"], "architecture"],
			["w02", "Does the protocol say how an AI application should use its model?", ["does not dictate"], "architecture"],
			["w03", "What are the two layers of MCP?", ["Data layer", "Transport layer"], "architecture"],
			["w04", "Which layer is the inner one?", ["data layer is the inner layer"], "architecture"],
			["w05", "How many clients does a local stdio server usually serve?", ["single MCP client"], "architecture"],
			["w06", "What is an MCP host?", ["AI application that coordinates and manages"], "architecture"],
			["w07", "Which message format do all transports share?", ["JSON-RPC 2.0"], "architecture"],
			["w08", "Why is the stdio transport fast?", ["no network overhead"], "architecture"],
			["w09", "What does the Streamable HTTP transport use to stream?", ["Server-Sent Events"], "architecture"],
			["w10", "Is MCP a stateless protocol?", ["stateful protocol"], "architecture"],
			["w11", "Why is loading every tool definition at the start a bad idea?", ["wastes tokens"], "practices"],
			["w12", "What meta-tool does a host give the model for progressive discovery?", ["search_tools"], "practices"],
			["w13", "At what share of the context window should a client switch to progressive discovery?", ["1%-5%"], "practices"],
			["w14", "Which search strategy handles synonyms best?", ["Embedding-based"], "practices"],
			["w15", "Which strategy uses a second, smaller model to pick tools?", ["Subagent-based"], "practices"],
			["w16", "What are the three layers of the search-based approach?", ["Catalog", "Inspect", "Execute"], "practices"],
			["w17", "When should the search catalog be rebuilt?", ["notifications/tools/list_changed"], "practices"],
			["w18", "Why can adding tools in the middle of a conversation cost more tokens?", ["invalidates that cache"], "practices"],
			["w19", "What is code mode?", ["model writes code that calls tools"], "practices"],
			["w20", "What must a client provide to use programmatic tool calling?", ["sandbox"], "practices"],
			["w21", "What is token passthrough?", ["anti-pattern"], "security"],
			["w22", "May a server accept tokens that were not issued for it?", ["MUST NOT accept any tokens"], "security"],
			["w23", "Can a server rely on sessions to authenticate requests?", ["MUST NOT use sessions for authentication"], "security"],
			["w24", "What kind of session IDs must servers use?", ["non-deterministic"], "security"],
			["w25", "What should the first set of scopes a client gets contain?", ["low-risk discovery/read operations"], "security"],
			["w26", "How does a server ask for more privileges when a risky operation is first tried?", ["WWW-Authenticate"], "security"],
			["w27", "What must a proxy server implement to prevent confused deputy attacks?", ["consent"], "security"],
			["w28", "Why is a token with broad scopes dangerous if stolen?", ["blast radius"], "security"],
			// Written as out of scope, answered by the page's table of sandboxes (seen on the first run): in scope.
			["w29", "Which programming languages can code mode scripts be written in?", ["JavaScript", "Python"], "practices"],
			["wo1", "How many servers can one host connect to at most?", null],
			["wo2", "Which company maintains the Sentry MCP server?", null],
			["wo3", "What port does the Streamable HTTP transport use by default?", null],
			["wo4", "How much does Claude Haiku cost per tool search?", null],
			["wo5", "Which embedding model works best for tool search?", null],
			["wo6", "How long should a session ID stay valid?", null],
			["wo7", "What encryption algorithm must session IDs use?", null],
			["wo8", "How many tools fit in a context window?", null],

			["wo10", "Who discovered the confused deputy problem?", null]
		]
	}
];


const JSX_LINE = /^\s*<\/?[A-Za-z][^<>]*>\s*$/;
/**
 * An MDX component's tag, which may span lines (`<Card\n  title="…"\n>`); components are
 * capitalised. And the HTML the pages write inline, an image (which a browser shows as no text)
 * and a line break in a table cell (the probe's renderer would print both as text).
 */
const COMPONENT_TAG = /<\/?[A-Z][A-Za-z]*(?:\s[^<>]*)?\/?>|<img\s[^<>]*>|<br\s*\/?>/g;

/** The MDX without its components' tags (their inner text stays), code blocks left as they are. */
function withoutComponents(mdx: string): string {
	// Odd pieces are fenced code, where "<T>" is a type, not a component.
	return mdx
		.split(/(^```[^\n]*\n[\s\S]*?^```)/m)
		.map((piece, i) => (i % 2 === 1 ? piece : piece.replace(COMPONENT_TAG, tag => (tag.startsWith("<br") ? " " : ""))))
		.join("");
}

/** The pages as a crawl would read them: Markdown rendered to a page, then its readable text. */
function loadPages(checkout: string, set: ProbeSet): TextSource[] {
	return Object.entries(set.pages).map(([key, file]) => {
		const full = path.join(checkout, set.root ?? path.join("docs", "specification", SPEC_VERSION), file);
		if (!fs.existsSync(full)) throw new Error(`${full} not found: pass a checkout of github.com/modelcontextprotocol/modelcontextprotocol`);
		const { data, body: mdx } = splitFrontMatter(fs.readFileSync(full, "utf8"));
		// MDX components (<Note>, <Card title="…" href="…">, <div id="…" />) are markup on the
		// published site, not text: Markdown rendering would show them as text.
		const body = withoutComponents(mdx)
			.split("\n")
			.filter(line => !JSX_LINE.test(line))
			.join("\n");
		const title = typeof data.title === "string" ? data.title : key;
		const url = `https://spec.example/${key}`;
		return { chatbotId: "spec", sourceId: key, kind: "url", title, url, text: readableText(pageHtml(title, body), url).text };
	});
}

/** The probe's questions of one set, as the benchmark's dev questions are written (corpus "spec-A"…). */
function questionsOf(set: ProbeSet): DevQuestion[] {
	const corpus = `spec-${set.name[0]}`;
	return set.questions.map(([id, q, facts, page]) => ({ id, corpus, q, facts: facts ?? [], pages: page ? page.split(" ") : [], oos: facts === null }));
}

/** One chatbot's index of a set's five pages, and the pages. */
async function indexOf(checkout: string, set: ProbeSet): Promise<{ index: GenerationIndex; pages: TextSource[] }> {
	const index = new GenerationIndex();
	const pages = loadPages(checkout, set);
	for (const item of await vectorizeChunks(chunkSources(pages), { locale: "en" })) index.add(item);
	return { index, pages };
}

/**
 * The questions of the sets named by their letter ("ABC"), asked of their set's index as the
 * dev split's are (asked.ts): for calibrate.ts, which may fit on sets already used to choose
 * changes and leave the others to judge the fit.
 */
export async function askedProbeQuestions(checkout: string, letters: string): Promise<Asked[]> {
	const out: Asked[] = [];
	for (const set of SETS.filter(s => letters.includes(s.name[0]))) {
		const { index } = await indexOf(checkout, set);
		for (const question of questionsOf(set)) {
			out.push({ question, locale: "en", hits: index.search({ sparse: questionQuery(question.q, [], "en").sparse }, RETRIEVE_LIMIT), history: [] });
		}
	}
	return out;
}

async function main(): Promise<void> {
	const checkout = process.argv.slice(2).find(arg => !arg.startsWith("--"));
	if (!checkout) throw new Error("usage: npx tsx bench/answers/spec-probe.ts <checkout of modelcontextprotocol/modelcontextprotocol> [--verbose]");
	const verbose = process.argv.includes("--verbose");
	const listed = process.argv.find(arg => arg.startsWith("--candidates="))?.slice("--candidates=".length).split(",") ?? [];
	const rows: Array<Record<string, string>> = [];
	const all = new Map<string, Graded[]>();
	for (const set of SETS) {
		// One chatbot per set, as the five pages of one crawl.
		const { index, pages } = await indexOf(checkout, set);
		const questions = questionsOf(set);
		// A fact its pages do not hold (a typo, or a page changed upstream) would count as a miss.
		for (const question of questions) {
			const text = pages.filter(page => question.pages.includes(page.sourceId)).map(page => page.text).join("\n");
			for (const fact of question.facts) if (!holdsFact(text, fact)) console.warn(`${question.id}: "${fact}" is not on ${question.pages.join(", ")}`);
		}
		for (const system of [baseline, current]) {
			const asked: Array<{ graded: Graded; result: SystemResult }> = [];
			for (const question of questions) {
				const result = await system.ask(index, { question: question.q, history: [], locale: "en" });
				asked.push({ graded: grade(question, result), result });
			}
			rows.push({ pages: set.name, answerer: system.name, ...summaryColumns(asked.map(a => a.graded)) });
			all.set(system.name, [...(all.get(system.name) ?? []), ...asked.map(a => a.graded)]);
			if (!verbose || system !== current) continue;
			for (const { graded: g, result } of asked) {
				if ((g.question.oos && g.verdict === "declined") || g.verdict === "fact") continue;
				// What the best passage says, given or declined.
				const chosen = result.candidate?.text ?? "";
				const kind = g.question.oos ? "OOS answered" : g.verdict === "wrong" ? "wrong" : g.question.facts.every(f => holdsFact(chosen, f)) ? "declined, best passage holds the fact" : "declined";
				const read = Object.entries(result.features ?? {}).map(([name, value]) => `${name}=${value.toFixed(2)}`).join(" ");
				console.log(`${g.question.id} ${kind} (p ${(result.probability ?? 0).toFixed(2)}): ${g.question.q}\n    ${read}\n    > ${chosen.replace(/\n/g, " ⏎ ").slice(0, 200)}`);
			}
		}
		for (const question of questions.filter(q => listed.includes(q.id))) {
			const hits = index.search({ sparse: questionQuery(question.q, [], "en").sparse }, RETRIEVE_LIMIT);
			const evidence = weighEvidence({ question: question.q, locale: "en", hits, ...lexiconFor("en") });
			console.log(`\n${question.id} p=${evidence.probability.toFixed(2)} ${question.q}`);
			for (const s of evidence.candidates.slice(0, Number(process.env.TOPN ?? 5))) console.log(`   - ${describePassage(s)}`);
		}
	}
	for (const [answerer, graded] of all) rows.push({ pages: "all sets", answerer, ...summaryColumns(graded) });
	printMarkdownTable(rows, `Model Context Protocol ${SPEC_VERSION} specification and guides, seven sets of three to five pages, one chatbot each (outside the benchmark)`);
}

if (require.main === module) {
	main().catch(err => {
		console.error(err instanceof Error ? err.message : err);
		process.exitCode = 1;
	});
}
