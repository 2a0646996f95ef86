/** The parts of a tool's description a model reads. */
export interface DescribedTool {
  description: string;
  examples?: readonly string[] | undefined;
  category?: string | undefined;
}

/**
 * A tool's description as a model or an MCP host reads it: the description, then its category and
 * examples when the tool has them (seed 003's structured description, flattened into the one text
 * field every model API and MCP carry). Without either, the description unchanged.
 */
export function toolDescriptionForModel(tool: DescribedTool): string {
  const lines = [tool.description];
  if (tool.category) lines.push(`Category: ${tool.category}`);
  if (tool.examples && tool.examples.length > 0) {
    lines.push('Examples:', ...tool.examples.map((example) => `- ${example}`));
  }
  return lines.join('\n');
}
