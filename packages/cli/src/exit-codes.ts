/** Process exit codes of `patchbay`, stable for scripts. */
export const exitCodes = {
  ok: 0,
  /**
   * Any failure: unknown connector or proposal, store locked or corrupt, bad configuration, a service
   * `connect` could not reach (nothing was refused, so trying again may work).
   */
  error: 1,
  /** Bad command line: unknown command or flag, missing argument. */
  usage: 2,
  /** `connect` refused: the service answered and rejected the credentials, or is rate limiting. */
  verificationRefused: 3,
  /** `call` / `approve` ran, and the tool returned an error envelope. */
  toolError: 4,
} as const;

/** One of {@link exitCodes}. */
export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];
