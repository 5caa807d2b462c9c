// The shape of a shell step's observation, shared by the terminal and SWE kinds. Terminal
// observations often carry more than the program's output: the echoed command line
// (`agent@atlas:~/app$ make`), an exit-status line that agent harnesses add
// (`[exit code: 0]`), and the prompt that follows. A perturbation rewrites the output and
// keeps the rest in the observation's own style, so the edit reads like the environment.

const ECHO_LINE = /^(?:[\w.-]+@[\w.-]+:[^\n]*?[$#]|\$|#)[ \t]+\S/;
const PROMPT_ONLY = /^(?:[\w.-]+@[\w.-]+:[^\n]*?[$#]|\$|#)[ \t]*$/;
const EXIT_LINE = /^(\W*(?:exit(?:[ _]code|[ _]status)?|return code|returncode)\W*?\s*[:=]?\s*)(-?\d+)(\W*)$/i;

interface ShellParts {
  echo: string | null;
  body: string;
  exit: { before: string; after: string; code: number } | null;
  prompt: string | null;
}

function split(observation: string): ShellParts {
  const lines = observation.replace(/\n+$/, '').split('\n');
  const echo = lines.length > 0 && ECHO_LINE.test(lines[0]!) ? lines.shift()! : null;
  const prompt = lines.length > 0 && PROMPT_ONLY.test(lines[lines.length - 1]!) ? lines.pop()! : null;
  let exit: ShellParts['exit'] = null;
  const last = lines[lines.length - 1];
  const m = last === undefined ? null : EXIT_LINE.exec(last.trim());
  if (m) {
    lines.pop();
    exit = { before: m[1]!, after: m[3]!, code: Number(m[2]) };
  }
  return { echo, body: lines.join('\n'), exit, prompt };
}

/**
 * Rewrites the program output of a shell observation. `exitCode`: a number sets the exit
 * status where the observation shows one; `'running'` drops the status and the trailing
 * prompt, because the command has not finished (a blocking prompt, a hung process).
 */
export function reshapeShellOutput(
  observation: string,
  rewrite: (body: string) => string,
  exitCode: number | 'running' | 'keep' = 'keep',
): string {
  const parts = split(observation);
  const out: string[] = [];
  if (parts.echo !== null) out.push(parts.echo);
  const body = rewrite(parts.body);
  if (body !== '') out.push(body);
  if (exitCode === 'running') return out.join('\n');
  if (parts.exit) {
    const code = exitCode === 'keep' ? parts.exit.code : exitCode;
    out.push(`${parts.exit.before}${code}${parts.exit.after}`);
  }
  if (parts.prompt !== null) out.push(parts.prompt);
  return out.join('\n') + (observation.endsWith('\n') ? '\n' : '');
}

/** The program output alone (no echoed command, exit line or prompt). */
export function shellBody(observation: string): string {
  return split(observation).body;
}

/** The first `fraction` of the lines of a text, as if the stream stopped there. */
export function keepLines(text: string, fraction: number): string {
  const lines = text.split('\n');
  const keep = Math.max(0, Math.min(lines.length, Math.floor(lines.length * fraction)));
  return lines.slice(0, keep).join('\n');
}

/** Joins output pieces with newlines, leaving out empty ones. */
export function joinOutput(...pieces: string[]): string {
  return pieces.filter((p) => p !== '').join('\n');
}
