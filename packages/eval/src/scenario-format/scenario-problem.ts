// One problem of a scenario file: where it is and, for a likely typo, the name that was meant.
import { relative } from 'node:path';

/** The fields of a {@link ScenarioProblem}. */
export interface ScenarioProblemFields {
  file: string;
  line: number;
  column: number;
  /** The data path, e.g. `turns[0].expect.called_ok`. */
  path?: string | undefined;
  message: string;
  /** The name most likely meant, for a typo. */
  suggestion?: string | undefined;
}

/** One problem in a scenario file, where it is and, for a likely typo, the name that was meant. */
export class ScenarioProblem implements ScenarioProblemFields {
  file: string;
  line: number;
  column: number;
  path?: string | undefined;
  message: string;
  suggestion?: string | undefined;

  constructor({ file, line, column, path, message, suggestion }: ScenarioProblemFields) {
    this.file = file;
    this.line = line;
    this.column = column;
    this.path = path;
    this.message = message;
    this.suggestion = suggestion;
  }

  /** `file:line:column: path: message; did you mean "x"?`, with `file` relative to `base` when given. */
  format(base?: string): string {
    const file = base ? relative(base, this.file) : this.file;
    const where = this.path ? `${this.path}: ` : '';
    const hint = this.suggestion === undefined ? '' : `; did you mean "${this.suggestion}"?`;
    return `${file}:${this.line}:${this.column}: ${where}${this.message}${hint}`;
  }
}
