// Reads the domain system prompt templates shipped in resources/prompts/ from disk.
// The only Node-bound file of src-main/prompt/; everything else here is pure.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Domain } from '../common/trajectory/model';
import { stripLeadingComment } from '../common/prompt/template';

export interface TemplateFolders {
  /** The folder shipped with the app (resources/prompts). */
  builtinDir: string;
}

export interface DomainTemplate {
  domain: Domain;
  /** The template text, placeholders unfilled, the explanatory comment at the top removed. */
  text: string;
  /** The file it was read from. */
  file: string;
}

const TEMPLATE_EXTENSION = '.md';

export async function loadDomainTemplate(domain: Domain, folders: TemplateFolders): Promise<DomainTemplate> {
  const file = join(folders.builtinDir, domain + TEMPLATE_EXTENSION);
  const text = await readIfPresent(file);
  if (text === null || text.trim() === '') {
    throw new Error(`The built-in prompt template for the ${domain} domain is missing or empty (${file}). Reinstall Worldloom.`);
  }
  return { domain, text, file };
}

async function readIfPresent(file: string): Promise<string | null> {
  try {
    return stripLeadingComment((await readFile(file, 'utf8')).replace(/^\uFEFF/, ''));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`Cannot read the prompt template ${file} (${(err as Error).message}).`);
  }
}
