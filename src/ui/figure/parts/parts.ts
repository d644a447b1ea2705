/**
 * The figure's deeper parts: each one click away under the two charts (or beside the plate's
 * paragraph it shows), folded until the reader opens it or uses it. Their names, their titles,
 * what each holds (its summary before a run has data), which part each setting's control lives in
 * (so a setting given by an attribute, a prop or the URL opens its part), and the fragment that
 * opens one (`#mtrl-practitioner`). Pure.
 */
import type { SettingKey } from '../../../pipeline/settings';

export type PartId = 'behaviour' | 'terms' | 'start' | 'step' | 'practitioner' | 'export' | 'time' | 'run-yourself';

interface PartWords {
  title: string;
  /** What the part holds, said in its summary line until a run gives it a headline figure. */
  holds: string;
}

export const PART: Record<PartId, PartWords> = {
  behaviour: {
    title: 'What the sampled episodes do',
    holds: 'answers that copy the tool, malformed episodes, against the reference runs',
  },
  terms: {
    title: 'Break the plate’s terms',
    holds: 'masking, the advantage, the grader, the temperature',
  },
  start: {
    title: 'Where a run starts',
    holds: 'the fine-tuned agent, the worksheet model or random weights; the seed; what the agent is taught',
  },
  step: {
    title: 'One step taken apart',
    holds: 'Step takes one; its 64 episodes, each character’s push, the group’s arithmetic; ask the agent a sum',
  },
  practitioner: {
    title: 'What a practitioner reads',
    holds: 'updates per batch and the clip, the vital signs under TRL’s and prime-rl’s names',
  },
  export: { title: 'Take the run away', holds: 'JSON, CSV, TRL-named JSON Lines, a link that sets it up again' },
  time: {
    title: 'Where a step’s time goes',
    holds: 'sampling, the update and the evaluation of each GRPO step, timed in this browser',
  },
  'run-yourself': {
    title: 'Run it yourself',
    holds: 'the same agent at every length, a world, its agent, a slow calculator',
  },
};

/**
 * The part each setting's control lives in; null: on the figure itself (the plate's own switch).
 * A Record, so a new setting must say where its control goes.
 */
export const PART_OF_SETTING: Record<SettingKey, PartId | null> = {
  faulty: null,
  masking: 'terms',
  advantage: 'terms',
  grader: 'terms',
  temperature: 'terms',
  start: 'start',
  updatesPerBatch: 'practitioner',
  episode: 'run-yourself',
  agent: 'run-yourself',
  toolLatencyMs: 'run-yourself',
};

/** The parts that hold the controls of `keys`, each once. */
export const partsOfSettings = (keys: readonly SettingKey[]): PartId[] => [
  ...new Set(keys.flatMap((k) => PART_OF_SETTING[k] ?? [])),
];

const FRAGMENT = 'mtrl-';

/** The URL fragment that opens a part: `#mtrl-practitioner`. */
export const partFragment = (id: PartId): string => `#${FRAGMENT}${id}`;

/** The part a URL fragment names, or null. */
export function partOfFragment(hash: string): PartId | null {
  const name = hash.replace(/^#/, '');
  if (!name.startsWith(FRAGMENT)) return null;
  const id = name.slice(FRAGMENT.length);
  return id in PART ? (id as PartId) : null;
}

/** A piece of a sentence: plain words, or a part's title quoted in it (“What a practitioner reads”). */
export type Mention = { text: string; part?: PartId };

const QUOTED = new RegExp(
  `“(${Object.values(PART)
    .map((p) => p.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|')})”`,
  'g',
);

/**
 * A sentence cut where it names a part by its title in quotes, so that the words it says can link
 * to the part (a note that says “What a practitioner reads” opens it). Other words stay as they are.
 */
export function partMentions(sentence: string): Mention[] {
  const byTitle = new Map(Object.entries(PART).map(([id, p]) => [p.title, id as PartId]));
  const out: Mention[] = [];
  let at = 0;
  for (const m of sentence.matchAll(QUOTED)) {
    if (m.index > at) out.push({ text: sentence.slice(at, m.index) });
    out.push({ text: m[1]!, part: byTitle.get(m[1]!)! });
    at = m.index + m[0].length;
  }
  if (at < sentence.length || out.length === 0) out.push({ text: sentence.slice(at) });
  return out;
}
