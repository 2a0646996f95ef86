import type { CallbackManagerForToolRun } from '@langchain/core/callbacks/manager';
import { StructuredTool, type ToolRunnableConfig } from '@langchain/core/tools';
import type { JsonSchema7Type } from '@langchain/core/utils/json_schema';
import type { SessionTool } from '@patchbay/turn';

/** Runs one call of a Patchbay tool: what the toolkit does for {@link PatchbayTool}. */
export type PatchbayToolRunner = (
  toolName: string,
  input: unknown,
  config: ToolRunnableConfig | undefined,
) => Promise<unknown>;

/** Open to every input: what LangChain's own check sees, so the gate is the one that checks. */
const anyInput: JsonSchema7Type = {};

/**
 * A Patchbay tool as a LangChain structured tool: its name, description and JSON Schema are the
 * gate's, and every call goes through the Patchbay turn session (and so through the gate).
 */
export class PatchbayTool extends StructuredTool<JsonSchema7Type> {
  /** The tool name the model sees. */
  name: string;
  /** What the tool does, for the model. */
  description: string;
  /** The gate's input JSON Schema: what `bindTools` shows the model. */
  schema: JsonSchema7Type;
  /** Whether the gate waits for a person before running a call of this tool. */
  readonly needsApproval: boolean;
  private readonly runner: PatchbayToolRunner;

  /** Made by `createPatchbayToolkit`, one per tool the session could offer. */
  constructor(definition: SessionTool, runner: PatchbayToolRunner) {
    super();
    this.name = definition.name;
    this.description = definition.description;
    this.schema = definition.inputJsonSchema as JsonSchema7Type;
    this.needsApproval = definition.needsApproval;
    this.runner = runner;
  }

  /** LangChain's serialisation name. */
  static lc_name(): string {
    return 'PatchbayTool';
  }

  /**
   * LangChain checks the input against `schema` before a tool runs and answers a mismatch with its
   * own error text. The gate must see every call instead: it asks the user's questions for missing
   * fields (`needs_input`), adds retry guidance and counts the attempts. The check runs in the
   * synchronous start of `call`, so the open schema is in place for exactly that check.
   */
  override call(...args: Parameters<StructuredTool<JsonSchema7Type>['call']>) {
    const { schema } = this;
    this.schema = anyInput;
    try {
      return super.call(...args);
    } finally {
      this.schema = schema;
    }
  }

  /** Runs the call through the toolkit. */
  protected async _call(
    input: unknown,
    _runManager?: CallbackManagerForToolRun,
    parentConfig?: ToolRunnableConfig,
  ): Promise<unknown> {
    return this.runner(this.name, input, parentConfig);
  }
}
