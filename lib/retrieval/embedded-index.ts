/**
 * In-process vector index persisted under a directory (the default back end, no server needed).
 *
 * A chatbot's data is loaded lazily on first use: its active pointer, then a generation's segments
 * when that generation is searched or written. Writes to one chatbot are serialised (a promise
 * chain per chatbot) and always reach disk before memory, so memory never holds what a restart
 * would lose. Searches take no lock: they read the active generation object, which `activate`
 * swaps in one assignment after the pointer file was renamed into place.
 *
 * One process must own the directory (the vectors service); other processes reach it over the bus.
 */
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { KeyedLock } from "../concurrency/keyed-lock";
import { appError } from "../errors";
import { GenerationIndex } from "./embedded-generation";
import {
	ACTIVE_FILE,
	chatbotDirName,
	generationDirName,
	listGenerations,
	readActivePointer,
	readSegments,
	writeActivePointer,
	writeSegment
} from "./embedded-store";
import {
	assertChatbotId,
	assertGeneration,
	assertIndexedChunks,
	assertLimit,
	IndexedChunk,
	IndexQuery,
	IndexStats,
	SearchHit,
	VectorIndex
} from "./vector-index";

export interface EmbeddedIndexOptions {
	/** Directory holding the index, e.g. `<DATA_DIR>/vectors`. Created on first write. */
	dir: string;
	/** Chatbots kept in memory; the least recently used beyond this are dropped and reloaded from disk when needed. */
	maxLoadedChatbots?: number;
}

const DEFAULT_MAX_LOADED_CHATBOTS = 1000;

interface LoadedGeneration {
	index: GenerationIndex;
	nextSegment: number;
}

interface ChatbotState {
	dir: string;
	active: number | undefined;
	generations: Map<number, Promise<LoadedGeneration>>;
}

export class EmbeddedVectorIndex implements VectorIndex {
	private readonly states = new Map<string, Promise<ChatbotState>>();
	private readonly locks = new KeyedLock();
	private closed = false;

	constructor(private readonly options: EmbeddedIndexOptions) {}

	private checkOpen(): void {
		if (this.closed) throw appError("unavailable", "The vector index is closed.");
	}

	private state(chatbotId: string): Promise<ChatbotState> {
		let state = this.states.get(chatbotId);
		if (state) {
			// Re-insert: Map order is then least- to most-recently used.
			this.states.delete(chatbotId);
			this.states.set(chatbotId, state);
			return state;
		}
		const dir = path.join(this.options.dir, chatbotDirName(chatbotId));
		state = readActivePointer(dir).then(pointer => ({ dir, active: pointer?.generation, generations: new Map() }));
		// A failed read must not stick: the next call tries again.
		state.catch(() => this.states.delete(chatbotId));
		this.states.set(chatbotId, state);
		this.evictIdle();
		return state;
	}

	/**
	 * Drops least recently used chatbots from memory. Everything is on disk already; chatbots with a
	 * write queued or running stay, so a reload can never miss a segment being written.
	 */
	private evictIdle(): void {
		const max = this.options.maxLoadedChatbots ?? DEFAULT_MAX_LOADED_CHATBOTS;
		for (const chatbotId of this.states.keys()) {
			if (this.states.size <= max) return;
			if (!this.locks.held(chatbotId)) this.states.delete(chatbotId);
		}
	}

	private generation(state: ChatbotState, generation: number): Promise<LoadedGeneration> {
		let loaded = state.generations.get(generation);
		if (!loaded) {
			const index = new GenerationIndex();
			loaded = readSegments(path.join(state.dir, generationDirName(generation)), item => index.add(item)).then(nextSegment => ({
				index,
				nextSegment
			}));
			loaded.catch(() => state.generations.delete(generation));
			state.generations.set(generation, loaded);
		}
		return loaded;
	}

	/** Runs `task` after every earlier write to the same chatbot has settled. */
	private exclusive<T>(chatbotId: string, task: () => Promise<T>): Promise<T> {
		this.checkOpen();
		return this.locks.run(chatbotId, task);
	}

	async upsert(chatbotId: string, generation: number, items: readonly IndexedChunk[]): Promise<void> {
		assertChatbotId(chatbotId);
		assertGeneration(generation);
		assertIndexedChunks(chatbotId, items);
		if (items.length === 0) return;
		await this.exclusive(chatbotId, async () => {
			const state = await this.state(chatbotId);
			const loaded = await this.generation(state, generation);
			const sequence = loaded.nextSegment++;
			await writeSegment(path.join(state.dir, generationDirName(generation)), sequence, items);
			for (const item of items) loaded.index.add(item);
		});
	}

	async activate(chatbotId: string, generation: number): Promise<void> {
		assertChatbotId(chatbotId);
		assertGeneration(generation);
		await this.exclusive(chatbotId, async () => {
			const state = await this.state(chatbotId);
			const loaded = await this.generation(state, generation);
			await writeActivePointer(state.dir, { generation, chunks: loaded.index.size });
			state.active = generation;
			// Other generations stay on disk until deleted, but need not stay in memory.
			for (const other of [...state.generations.keys()]) if (other !== generation) state.generations.delete(other);
		});
	}

	async activeGeneration(chatbotId: string): Promise<number | undefined> {
		assertChatbotId(chatbotId);
		this.checkOpen();
		return (await this.state(chatbotId)).active;
	}

	async search(chatbotId: string, query: IndexQuery, limit: number, generation?: number): Promise<SearchHit[]> {
		assertChatbotId(chatbotId);
		assertLimit(limit);
		if (generation !== undefined) assertGeneration(generation);
		this.checkOpen();
		const state = await this.state(chatbotId);
		const searched = generation ?? state.active;
		if (searched === undefined) return [];
		const loaded = await this.generation(state, searched);
		return loaded.index.search(query, limit);
	}

	async deleteGeneration(chatbotId: string, generation: number): Promise<void> {
		assertChatbotId(chatbotId);
		assertGeneration(generation);
		await this.exclusive(chatbotId, async () => {
			const state = await this.state(chatbotId);
			if (state.active === generation) {
				await fs.rm(path.join(state.dir, ACTIVE_FILE), { force: true });
				state.active = undefined;
			}
			state.generations.delete(generation);
			await fs.rm(path.join(state.dir, generationDirName(generation)), { recursive: true, force: true });
		});
	}

	async pruneGenerations(chatbotId: string, olderThan?: number): Promise<void> {
		assertChatbotId(chatbotId);
		if (olderThan !== undefined) assertGeneration(olderThan);
		await this.exclusive(chatbotId, async () => {
			const state = await this.state(chatbotId);
			for (const generation of await listGenerations(state.dir)) {
				if (generation === state.active || (olderThan !== undefined && generation >= olderThan)) continue;
				state.generations.delete(generation);
				await fs.rm(path.join(state.dir, generationDirName(generation)), { recursive: true, force: true });
			}
		});
	}

	async deleteChatbot(chatbotId: string): Promise<void> {
		assertChatbotId(chatbotId);
		await this.exclusive(chatbotId, async () => {
			const state = await this.state(chatbotId);
			state.active = undefined;
			state.generations.clear();
			this.states.delete(chatbotId);
			await fs.rm(state.dir, { recursive: true, force: true });
		});
	}

	async stats(): Promise<IndexStats> {
		this.checkOpen();
		let names: string[] = [];
		try {
			names = await fs.readdir(this.options.dir);
		} catch (err) {
			if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
		}
		let chatbots = 0;
		let chunks = 0;
		for (const name of names.filter(n => /^[ch]-/.test(n))) {
			const pointer = await readActivePointer(path.join(this.options.dir, name));
			if (!pointer) continue;
			chatbots++;
			chunks += pointer.chunks;
		}
		return { backend: "embedded", chatbots, chunks };
	}

	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		await this.locks.idle();
		this.states.clear();
	}
}
