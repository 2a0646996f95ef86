import { z } from 'zod';

/**
 * The connector statuses, spelled as the model reads them. `unavailable` is used only for MCP
 * servers (DESIGN: "MCP servers are connectors"): configured, but down or still starting; no status
 * source stores it and no connector reports it.
 */
export const connectorStatuses = [
  'connected',
  'not_configured',
  'invalid_credentials',
  'rate_limited',
  'disabled_by_admin',
  'unavailable',
] as const;

/** Zod schema of {@link ConnectorStatus}. */
export const connectorStatusSchema = z.enum(connectorStatuses);
/** Whether a connector can be used for a subject right now, and if not why. */
export type ConnectorStatus = (typeof connectorStatuses)[number];

/** One connector's status for one subject at capture time (camelCase API form). */
export const connectorStatusEntrySchema = z.object({
  id: z.string(),
  status: connectorStatusSchema,
  /** Scopes the stored credentials grant (connected only). */
  scopes: z.array(z.string()).default([]),
  /** Why the credentials are invalid, as a sentence without secrets. */
  error: z.string().optional(),
  /** ISO time after which a rate-limited connector may be used again (or an unavailable MCP server is retried). */
  retryAfter: z.string().optional(),
  /** ISO time of the last successful or failed verification. */
  verifiedAt: z.string().optional(),
});
/** One connector's status for one subject at capture time. */
export type ConnectorStatusEntry = z.infer<typeof connectorStatusEntrySchema>;

/** Status of every known connector for one subject, captured at one instant. */
export const statusSnapshotSchema = z.object({
  subject: z.string(),
  /** ISO time of capture. */
  capturedAt: z.string(),
  /** Keyed by connector id. */
  connectors: z.record(z.string(), connectorStatusEntrySchema),
  /** Ids the status source knows but no installed connector declares. Reported, never dropped silently. */
  unknownConnectorIds: z.array(z.string()).default([]),
  /**
   * Every id an admin disabled for this subject, connectors and other agents alike (an MCP server's
   * name, `function:<name>`): what a gateway needs to leave a disabled server's tools out.
   */
  disabledIds: z.array(z.string()).optional(),
});
/** Status of every known connector for one subject, captured at one instant. */
export type StatusSnapshot = z.infer<typeof statusSnapshotSchema>;
