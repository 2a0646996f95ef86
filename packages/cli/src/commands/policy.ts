import type { Command } from '../command.js';
import { exitCodes } from '../exit-codes.js';

/** Builds `disable` or `enable`: the admin policy switches. */
function policyCommand(action: 'disable' | 'enable'): Command {
  const verb = action === 'disable' ? 'Disable' : 'Enable';
  return {
    name: action,
    usage: '<id> [--user-only]',
    summary: `${verb} a connector by admin policy (everyone, or only --user with --user-only)`,
    examples: [`patchbay ${action} jira`, `patchbay ${action} slack --user alice --user-only`],
    options: { 'user-only': { type: 'boolean', default: false } },
    positionals: { required: ['id'] },
    async run(runtime, values, [id]) {
      // Policy may name a connector that is not installed here (another instance may have it), but a typo should not pass silently.
      await runtime.connector(id!);
      const subject = values['user-only'] ? runtime.settings.subject : undefined;
      const store = runtime.store();
      let changed = true;
      if (action === 'disable') await store.disableConnector(id!, subject);
      else changed = await store.enableConnector(id!, subject);
      await store.audit.append({ event: `connector_${action}d`, connector: id, subject: subject ?? '*' });
      const who = subject ? `for ${subject}` : 'for everyone';
      if (runtime.settings.json)
        runtime.printJson({ connector: id, action, subject: subject ?? null, changed });
      else if (action === 'disable') runtime.print(`Disabled ${id} ${who}.`);
      else runtime.print(changed ? `Enabled ${id} ${who}.` : `${id} had no disable rule ${who}.`);
      return exitCodes.ok;
    },
  };
}

/** `patchbay disable <id>`. */
export const disableCommand = policyCommand('disable');
/** `patchbay enable <id>`. */
export const enableCommand = policyCommand('enable');
