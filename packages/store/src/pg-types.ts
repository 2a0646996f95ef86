// The parts of the `pg` driver this package uses, typed here instead of imported from `pg`: `pg` is
// an optional peer dependency, and a declaration that imports its types makes every consumer's
// type-check fail (under `skipLibCheck: false`) when it is not installed, SQLite users included.
// `src/published-types.test.ts` holds that no published declaration names `pg`.

/** A row as the driver returns it. */
export interface PgRow {
  // `any`, as `pg`'s own QueryResultRow: only an `any` index signature accepts the row interfaces.
  // biome-ignore lint/suspicious/noExplicitAny: see above
  [column: string]: any;
}

/** What a query resolves to. */
export interface PgQueryResult<Row extends PgRow = PgRow> {
  rows: Row[];
  rowCount: number | null;
}

/** A statement with its values, optionally a named prepared statement. */
export interface PgQueryConfig {
  text: string;
  values?: unknown[];
  name?: string;
}

/** Anything that runs queries: a pool, a pooled client, a client. */
export interface PgQueryable {
  query<Row extends PgRow = PgRow>(
    statement: string | PgQueryConfig,
    values?: unknown[],
  ): Promise<PgQueryResult<Row>>;
}

/** One client checked out of a pool. */
export interface PgPoolClient extends PgQueryable {
  release(): void;
}

/** A connection pool. */
export interface PgPool extends PgQueryable {
  connect(): Promise<PgPoolClient>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** A `LISTEN` notification. */
export interface PgNotification {
  channel: string;
  payload?: string | undefined;
}

/** One dedicated connection (the status watcher's). */
export interface PgClient extends PgQueryable {
  connect(): Promise<void>;
  end(): Promise<void>;
  on(event: 'notification', listener: (message: PgNotification) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
}

/** Connection settings of a pool or client. */
export interface PgClientConfig {
  connectionString?: string;
  options?: string;
  max?: number;
}

/** The `pg` module as loaded on demand: SQLite users never install or load it. */
export interface PgModule {
  Pool: new (config: PgClientConfig) => PgPool;
  Client: new (config: PgClientConfig) => PgClient;
}
