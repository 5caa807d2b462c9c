// Fills the placeholders of a world-model system prompt template. Pure.
//
// Syntax (documented at the top of every file in resources/prompts/):
//   {{name}}                  replaced by the value (empty when the value is blank)
//   {{#name}} … {{/name}}     kept only when the value is not blank
// Only the names passed in are touched. The same filler runs on system prompts imported
// from other tools, which may hold their own curly-brace syntax (Go templates, Jinja,
// Helm charts in an SWE task); a full template engine would reject or rewrite that text,
// this one leaves every unknown name exactly as written.

export type TemplateValues = Readonly<Record<string, string | null | undefined>>;

/** The placeholders Worldloom fills in a world-model system prompt. */
export const PLACEHOLDERS = {
  worldSpec: 'world_spec',
  perturbation: 'perturbation',
  initialState: 'initial_state',
} as const;

export function fillTemplate(template: string, values: TemplateValues): string {
  let text = template;
  for (const [name, value] of Object.entries(values)) {
    const present = value != null && value.trim() !== '';
    const n = escapeRegExp(name);
    // A section tag alone on its line takes its line break with it, so a dropped
    // section leaves no blank gap and a kept one adds none.
    const section = new RegExp(`\\{\\{#\\s*${n}\\s*\\}\\}\\r?\\n?([\\s\\S]*?)\\{\\{/\\s*${n}\\s*\\}\\}(?:[ \\t]*\\r?\\n)?`, 'g');
    text = text.replace(section, (_all, inner: string) => (present ? inner : ''));
    const placeholder = new RegExp(`\\{\\{\\s*${n}\\s*\\}\\}`, 'g');
    // A function replacement, so "$&" or "$1" inside the value stays literal.
    text = text.replace(placeholder, () => (present ? value! : ''));
  }
  return text;
}

/** Whether the template places this value itself (as a placeholder or a section). */
export function hasPlaceholder(template: string, name: string): boolean {
  return new RegExp(`\\{\\{[#/]?\\s*${escapeRegExp(name)}\\s*\\}\\}`).test(template);
}

/**
 * Template files may open with an HTML comment that explains them to the person editing
 * the file; it is not meant for the model.
 */
export function stripLeadingComment(fileText: string): string {
  return fileText.replace(/^\uFEFF?\s*<!--[\s\S]*?-->[ \t]*\r?\n?(?:[ \t]*\r?\n)*/, '');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
