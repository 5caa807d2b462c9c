// Reads the domain system prompt templates from disk: the ones shipped in
// resources/prompts/, overridden file by file by a folder the user picks.
// The only Node-bound file of src-main/prompt/; everything else here is pure.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DOMAINS, type Domain } from '../common/trajectory/model';
import { stripLeadingComment } from '../common/prompt/template';
import { worldModelSystemPrompt, type WorldModelPromptInput } from '../common/prompt/world-model-messages';

export interface TemplateFolders {
  /** The folder shipped with the app (resources/prompts). */
  builtinDir: string;
  /** A folder of the user's own `<domain>.md` files; each one found replaces the built-in one. */
  userDir?: string | null;
}

export interface DomainTemplate {
  domain: Domain;
  /** The template text, placeholders unfilled, the explanatory comment at the top removed. */
  text: string;
  /** The file it was read from. */
  file: string;
  fromUserDir: boolean;
}

export interface LoadedTemplates {
  templates: Record<Domain, DomainTemplate>;
  /** Files in the user's folder that were skipped, each with the reason. */
  problems: string[];
}

export const TEMPLATE_EXTENSION = '.md';

export async function loadDomainTemplates(folders: TemplateFolders): Promise<LoadedTemplates> {
  const problems: string[] = [];
  const overrides = folders.userDir ? await userTemplates(folders.userDir, problems) : new Map<Domain, DomainTemplate>();
  const entries = await Promise.all(
    DOMAINS.map(async (domain) => [domain, overrides.get(domain) ?? (await builtinTemplate(folders.builtinDir, domain))] as const),
  );
  return { templates: Object.fromEntries(entries) as Record<Domain, DomainTemplate>, problems };
}

export async function loadDomainTemplate(domain: Domain, folders: TemplateFolders): Promise<DomainTemplate> {
  if (folders.userDir) {
    const file = join(folders.userDir, domain + TEMPLATE_EXTENSION);
    const text = await readIfPresent(file);
    if (text !== null && text.trim() !== '') return { domain, text, file, fromUserDir: true };
  }
  return builtinTemplate(folders.builtinDir, domain);
}

/** The domain's system prompt with world spec, initial state and control instruction filled in. */
export async function loadSystemPrompt(
  domain: Domain,
  folders: TemplateFolders,
  values: Pick<WorldModelPromptInput, 'worldSpec' | 'initialState' | 'controlInstruction'> = {},
): Promise<string> {
  const template = await loadDomainTemplate(domain, folders);
  return worldModelSystemPrompt({ ...values, systemPrompt: template.text });
}

async function builtinTemplate(dir: string, domain: Domain): Promise<DomainTemplate> {
  const file = join(dir, domain + TEMPLATE_EXTENSION);
  const text = await readIfPresent(file);
  if (text === null || text.trim() === '') {
    throw new Error(
      `The built-in prompt template for the ${domain} domain is missing or empty (${file}). ` +
        'Reinstall Worldloom, or pick a prompt folder that has a ' + domain + TEMPLATE_EXTENSION + ' file.',
    );
  }
  return { domain, text, file, fromUserDir: false };
}

async function userTemplates(dir: string, problems: string[]): Promise<Map<Domain, DomainTemplate>> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    throw new Error(`Cannot read the prompt folder ${dir} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}). Pick another folder.`);
  }
  const found = new Map<Domain, DomainTemplate>();
  for (const name of names.sort()) {
    if (!name.toLowerCase().endsWith(TEMPLATE_EXTENSION)) continue;
    const stem = name.slice(0, -TEMPLATE_EXTENSION.length).toLowerCase();
    if (!(DOMAINS as readonly string[]).includes(stem)) {
      problems.push(`${name}: not a domain name (expected one of ${DOMAINS.map((d) => d + TEMPLATE_EXTENSION).join(', ')}); skipped`);
      continue;
    }
    const file = join(dir, name);
    const text = await readIfPresent(file);
    if (text === null || text.trim() === '') {
      problems.push(`${name}: empty or unreadable; the built-in template is used instead`);
      continue;
    }
    found.set(stem as Domain, { domain: stem as Domain, text, file, fromUserDir: true });
  }
  return found;
}

async function readIfPresent(file: string): Promise<string | null> {
  try {
    return stripLeadingComment((await readFile(file, 'utf8')).replace(/^\uFEFF/, ''));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`Cannot read the prompt template ${file} (${(err as Error).message}).`);
  }
}
