import type { StatusSource } from '@patchbay/connector/ports';

/**
 * The credential values of the connections the gateway has read, latest per subject, so a log line
 * that echoes one (an error from a database driver, a service) has it removed. A remote MCP
 * server's OAuth tokens are the subject's connection for that server, so they are among them.
 */
export class CredentialValues {
  private readonly bySubject = new Map<string, string[]>();

  /** The status source, recording the credentials of every state it loads. */
  watch(source: StatusSource): StatusSource {
    return {
      load: async (subject) => {
        const state = await source.load(subject);
        this.bySubject.set(
          subject,
          state.connections.flatMap((connection) =>
            Object.values(connection.credentials ?? {}).filter((value) => typeof value === 'string'),
          ),
        );
        return state;
      },
      markRateLimited: (subject, connectorId, until) => source.markRateLimited(subject, connectorId, until),
      markInvalidCredentials: (subject, connectorId, error) =>
        source.markInvalidCredentials(subject, connectorId, error),
    };
  }

  /** Every recorded value. */
  values(): string[] {
    return [...this.bySubject.values()].flat();
  }
}
