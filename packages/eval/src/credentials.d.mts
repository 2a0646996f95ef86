// Declarations of the JavaScript module beside this file, for the TypeScript that imports it: loose
// on purpose (index.ts re-exports each name with its precise type, the contract).
// biome-ignore-all lint/suspicious/noExplicitAny: the precise types are in index.ts
export const minSecretLength: number;
export const evalSecretPattern: RegExp;
export const evalCredentials: any;
export const credentialsFor: (
  connector: any,
  credentialsOf?: (connector: any) => Record<string, string>,
) => { credentials: Record<string, string>; secrets: string[]; problems: string[] };
export const secretForms: (secret: string) => string[];
