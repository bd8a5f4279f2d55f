/** A write that changed a collection: the document inserted, or the query of an update or removal that matched. */
export type CollectionWrite = { query: object } | { inserted: object };
