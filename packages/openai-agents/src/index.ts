/** Placeholder: filled in by the package's work. */
export {};
