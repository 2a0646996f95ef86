/** The message of anything thrown, for logs (redact it before logging). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
