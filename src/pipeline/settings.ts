/**
 * The reader's run settings, one row each: its choices (from the module that owns them), the
 * plate's own value, how the URL and the element's attribute write it, its label and what it
 * means. The row's key is the setting's name in a run's config and the React prop's name.
 *
 * Everything else is derived from this table: RunSettings and RunConfig, PLATE_SETTINGS, the
 * worker's check of a run's config (protocol/guards.ts), the URL, attribute and prop parsing and
 * their messages (ui/options.ts), the props' documentation (ui/props.ts), the export link and
 * file name, the controls' labels, a run's label on the charts, and the workshop's command line.
 * The engine reads a run's settings through one translator, grpoConfigOf. Adding a setting is a
 * row here, a line in grpoConfigOf, its control and the words about it.
 */
import { ADVANTAGES, GRPO, type GrpoConfig } from '../config';
import { EPISODES, type EpisodeKind } from '../env/episode';
import { AGENT_CHOICES, agentOf, agentRefusal, WORLDS } from '../env/world';
import { GRADERS } from '../env/grader';
import { STARTS } from './stages';

type Value = string | number | boolean;

export interface SettingRow<T extends Value = Value> {
  choices: readonly T[];
  /** The plate's own choice. */
  plate: T;
  /** The URL's key, the element's attribute and the workshop's `--option`. */
  name: string;
  /**
   * How the URL and the attribute write each choice: the first text of a choice is the one
   * written (the export link); the others are read too. Default: String(choice).
   */
  texts?: Readonly<Record<string, T>>;
  /** The control's label, and a hint in brackets beside it. */
  label: string;
  hint?: string;
  /** Each choice in the control's words, keyed by String(choice). */
  choiceLabels: Readonly<Record<string, string>>;
  /** What a run's label says of a choice ('' says nothing: the plate's, as a rule), in the run's world. */
  runLabel(choice: T, s: { episode: EpisodeKind }): string;
  /** The same in a file name ('' says nothing). */
  fileLabel(choice: T, s: { episode: EpisodeKind }): string;
  /** What the setting does, in one line (the props' and attributes' documentation). */
  doc: string;
  /**
   * What a change restarts once a run has its agent: GRPO alone, from the run's own agent
   * ('grpo'), or the whole pipeline ('run': the agent itself would differ).
   */
  restarts: 'grpo' | 'run';
}

/** A row with its literal types kept: its choices, its name, the texts the URL and attribute take. */
const row = <T extends Value, const N extends string, const X extends Readonly<Record<string, T>> = Record<never, T>>(
  r: Omit<SettingRow<T>, 'name' | 'texts'> & { name: N; texts?: X },
): Omit<SettingRow<T>, 'name' | 'texts'> & { name: N; texts?: X } => r;

/** Each choice labelled as it is written, the plate's marked. */
const plainLabels = <T extends Value>(choices: readonly T[], plate: T): Record<string, string> =>
  Object.fromEntries(choices.map((c) => [String(c), c === plate ? `${c} (the plate’s)` : String(c)]));

/** The sampling temperatures the figure offers; 1 is the plate's. */
const TEMPERATURES = [0.5, 1, 1.5] as const;
export type Temperature = (typeof TEMPERATURES)[number];

export const SETTINGS = {
  episode: row({
    choices: EPISODES,
    plate: 'one-call',
    name: 'episode',
    label: 'Episode',
    hint: 'the same algorithm, a longer episode',
    choiceLabels: {
      'one-call': 'one call (the plate’s)',
      'two-calls': 'two calls (three-term sums)',
      'three-calls': 'three calls (four-term sums)',
    },
    runLabel: (e) => (e === 'two-calls' ? 'two calls' : e === 'three-calls' ? 'three calls' : ''),
    fileLabel: (e) => (e === 'one-call' ? '' : e),
    doc: 'the episode: one call (default, the plate’s), two calls on three-term sums or three calls on four-term sums ([transcripts](results.md#the-same-algorithm-a-longer-episode)); the plate’s agent plays one call, the three-call agent the longer episodes, unless `agent` names another',
    restarts: 'run',
  }),
  agent: row({
    choices: AGENT_CHOICES,
    plate: 'own',
    name: 'agent',
    label: 'Agent',
    hint: 'hold the agent fixed while the episode grows',
    choiceLabels: {
      own: 'the episode’s own (the plate’s agent for one call, the three-call agent for two and three)',
      'one-call': 'the one-call agent (the plate’s)',
      'three-calls': 'the three-call agent (fine-tuned on one-, two- and three-call sums)',
    },
    // Nothing where it names the episode's own agent: "two calls" says which agent plays.
    runLabel: (a, s) =>
      a === 'own' || a === WORLDS[s.episode].agent
        ? ''
        : `the ${a === 'three-calls' ? 'three-call' : 'one-call'} agent`,
    fileLabel: (a, s) =>
      a === 'own' || a === WORLDS[s.episode].agent ? '' : `${a === 'three-calls' ? 'three-call' : 'one-call'}-agent`,
    doc: 'which fine-tuned agent plays: the episode’s own (default), `one-call` (the plate’s; one-call sums only) or `three-calls` (fine-tuned on all three lengths: the same agent at every length)',
    restarts: 'run',
  }),
  start: row({
    choices: STARTS,
    plate: 'agent',
    name: 'start',
    label: 'Start from',
    choiceLabels: {
      agent: 'the fine-tuned agent',
      pretrained: 'the worksheet model (fine-tune it here)',
      scratch: 'random weights (pre-train, then fine-tune)',
    },
    runLabel: (s) =>
      s === 'pretrained' ? 'fine-tuned here' : s === 'scratch' ? 'trained here from random weights' : '',
    fileLabel: (s) => s,
    doc: 'where a run begins: the fine-tuned agent (default), the worksheet model, random weights',
    restarts: 'run',
  }),
  faulty: row({
    choices: [false, true],
    plate: false,
    name: 'faulty',
    texts: { '0': false, '1': true, false: false, true: true, '': true },
    label: 'Faulty calculator',
    hint: `wrong ${Math.round(GRPO.faultyRate * 100)}% of the time`,
    choiceLabels: { false: 'reliable', true: 'faulty' },
    runLabel: (f) => (f ? 'faulty' : 'reliable'),
    fileLabel: (f) => (f ? 'faulty' : 'reliable'),
    doc: 'begin with the faulty calculator',
    restarts: 'grpo',
  }),
  masking: row({
    choices: [true, false],
    plate: true,
    name: 'masking',
    texts: { on: true, off: false },
    label: 'Observation masking',
    hint: 'train on the model’s characters only',
    choiceLabels: { true: 'on', false: 'off' },
    runLabel: (m) => (m ? '' : 'masking off'),
    fileLabel: (m) => (m ? '' : 'masking-off'),
    doc: 'observation masking; off trains on the calculator’s result characters too',
    restarts: 'grpo',
  }),
  advantage: row({
    choices: ADVANTAGES,
    plate: 'group',
    name: 'advantage',
    label: 'Advantage',
    choiceLabels: { group: 'group-relative', raw: 'raw reward' },
    runLabel: (a) => (a === 'raw' ? 'raw reward' : ''),
    fileLabel: (a) => (a === 'raw' ? 'raw-reward' : ''),
    doc: 'group-relative advantage (default) or the raw reward',
    restarts: 'grpo',
  }),
  temperature: row({
    choices: TEMPERATURES,
    plate: 1,
    name: 'temperature',
    label: 'Temperature',
    choiceLabels: plainLabels(TEMPERATURES, 1),
    runLabel: (t) => (t === 1 ? '' : `temperature ${t}`),
    fileLabel: (t) => (t === 1 ? '' : `t${t}`),
    doc: 'sampling temperature of GRPO’s episodes (default 1, the plate’s)',
    restarts: 'grpo',
  }),
  grader: row({
    choices: GRADERS,
    plate: 'exact',
    name: 'grader',
    label: 'Grader',
    hint: 'training episodes only; held-out success is always graded exactly',
    choiceLabels: {
      exact: 'exact answer (the plate’s)',
      'crash-pass': 'a crash counts as a pass (a bug)',
      'trusts-tool': 'trusts the calculator (a bug)',
    },
    runLabel: (g) =>
      g === 'crash-pass' ? 'a crash counts as a pass' : g === 'trusts-tool' ? 'grader trusts the calculator' : '',
    fileLabel: (g) => (g === 'exact' ? '' : g),
    doc: 'who pays GRPO’s training episodes: the exact answer (default, the plate’s), or a bug — a crash counts as a pass, or the calculator is trusted; held-out success is always graded exactly',
    restarts: 'grpo',
  }),
  updatesPerBatch: row({
    choices: [1, 2, 4],
    plate: 1,
    name: 'updates-per-batch',
    label: 'Updates per batch (μ)',
    hint: 'TRL’s num_iterations: reuse each sampled batch; the clip bites from the second update',
    choiceLabels: { 1: '1 (the plate’s)', 2: '2', 4: '4' },
    runLabel: (mu) => (mu === 1 ? '' : `μ = ${mu}`),
    fileLabel: (mu) => (mu === 1 ? '' : `mu${mu}`),
    doc: 'policy updates per sampled batch, μ (TRL’s `num_iterations`): 1 (default, the plate’s; the clip never acts), 2 or 4 (the batch reused, the ratio clipped at 1 ± ε)',
    restarts: 'grpo',
  }),
  toolLatencyMs: row({
    choices: [0, 50, 200],
    plate: 0,
    name: 'tool-latency-ms',
    label: 'Calculator latency',
    hint: 'a slow tool: the batch’s pending calls answered together',
    choiceLabels: { 0: 'instant (the plate’s)', 50: '50 ms a call', 200: '200 ms a call' },
    runLabel: (ms) => (ms === 0 ? '' : `a ${ms} ms tool`),
    fileLabel: (ms) => (ms === 0 ? '' : `tool${ms}ms`),
    doc: 'how long the calculator takes to answer, in ms: 0 (default, instant), 50 or 200 (a batch’s pending calls answered together)',
    restarts: 'grpo',
  }),
} as const;

export type SettingKey = keyof typeof SETTINGS;
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

type ChoiceOf<R> = R extends SettingRow<infer T> ? T : never;

/** What the reader chose: one value per row of the table. */
export type RunSettings = { [K in SettingKey]: ChoiceOf<(typeof SETTINGS)[K]> };

/**
 * How the element's attribute for `K` may be written: a switch as HTML writes a boolean attribute
 * (any text, ui/options.ts reads the off words), another row as its texts or its choices as text.
 */
type SettingText<K extends SettingKey> = RunSettings[K] extends boolean
  ? string
  : (typeof SETTINGS)[K] extends { texts?: infer X }
    ? [keyof X] extends [never]
      ? `${RunSettings[K]}`
      : keyof X & string
    : never;

/** The element's attributes for the settings, by the row's name. */
export type SettingAttributes = {
  [K in SettingKey as (typeof SETTINGS)[K]['name']]?: SettingText<K> | RunSettings[K];
};

/** A run: the reader's settings, the seed of every stage, and the GRPO steps. */
export interface RunConfig extends RunSettings {
  /** Seeds every stage of the run (each stage draws its own stream from it). */
  seed: number;
  /** GRPO steps. */
  steps: number;
}

/** The plate's own settings: the one-call episode, start from the fine-tuned agent, the reliable calculator, masking on, group-relative, temperature 1, the exact grader, one update per batch, an instant calculator. */
export const PLATE_SETTINGS = Object.fromEntries(SETTING_KEYS.map((k) => [k, SETTINGS[k].plate])) as RunSettings;

/** How the URL and the attribute write a choice: the first text the row gives it. */
export function textOf<K extends SettingKey>(key: K, choice: RunSettings[K]): string {
  const texts = (SETTINGS[key] as SettingRow).texts;
  if (!texts) return String(choice);
  return Object.keys(texts).find((t) => texts[t] === choice)!;
}

/** The choice a URL or attribute text stands for, or undefined. */
export function choiceOfText<K extends SettingKey>(key: K, text: string): RunSettings[K] | undefined {
  const r = SETTINGS[key] as SettingRow;
  const hit = r.texts
    ? Object.hasOwn(r.texts, text)
      ? r.texts[text]
      : undefined
    : r.choices.find((c) => String(c) === text);
  return hit as RunSettings[K] | undefined;
}

/** The texts a URL or attribute may use, as a note says them: "on or off" (a switch), "one of group, raw". */
export function expectedTexts(key: SettingKey): string {
  const choices = SETTINGS[key].choices as readonly Value[];
  const texts = choices.map((c) => textOf(key, c as never));
  return typeof choices[0] === 'boolean' ? `${texts[0]} or ${texts[1]}` : `one of ${texts.join(', ')}`;
}

/** `x` is one of the row's choices (a prop's value, a message's field). */
export const isChoice = <K extends SettingKey>(key: K, x: unknown): x is RunSettings[K] =>
  (SETTINGS[key].choices as readonly unknown[]).includes(x);

/** Every row's value in `x` is one of its choices, and the agent can play the episode (env/world.ts). */
export const isRunSettings = (x: Record<string, unknown>): boolean =>
  SETTING_KEYS.every((k) => isChoice(k, x[k])) && agentRefusal(x as RunSettings) === null;

/** The rows in a run's label: what trained it first, then where it started ("faulty, masking off, fine-tuned here"). */
export const LABEL_ORDER: readonly SettingKey[] = [...SETTING_KEYS.filter((k) => k !== 'start'), 'start'];

/**
 * A run's settings in words, only what differs from the plate (and always the calculator): "faulty,
 * masking off"; `rows` says only those rows, in the label's order.
 */
export const settingsLabel = (s: RunSettings, rows: readonly SettingKey[] = LABEL_ORDER): string =>
  LABEL_ORDER.filter((k) => rows.includes(k))
    .map((k) => (SETTINGS[k] as SettingRow).runLabel(s[k], s))
    .filter(Boolean)
    .join(', ');

/** A run's settings in a file name, in the table's order ("agent-faulty-masking-off"). */
export const settingsFileLabel = (s: RunSettings): string =>
  SETTING_KEYS.map((k) => (SETTINGS[k] as SettingRow).fileLabel(s[k], s))
    .filter(Boolean)
    .join('-');

/**
 * The settings with an agent that can play their episode: a reader who picks two calls after
 * asking for the one-call agent gets the two-call world's own (env/world.ts's agentRefusal).
 */
export const withPlayableAgent = (s: RunSettings): RunSettings => (agentRefusal(s) ? { ...s, agent: 'own' } : s);

/**
 * The same agent would come out of both runs' pipelines: the same seed, the same agent (`own`
 * or named), and no change to a setting that reaches past GRPO (where the run starts).
 * Then a run's agent serves the other.
 */
export const samePipeline = (a: RunConfig, b: RunConfig): boolean =>
  a.seed === b.seed &&
  agentOf(a) === agentOf(b) &&
  SETTING_KEYS.every((k) => SETTINGS[k].restarts === 'grpo' || k === 'agent' || a[k] === b[k]);

/** The engine's GRPO config for a run: the one place a run's settings become the trainer's knobs. */
export function grpoConfigOf(base: GrpoConfig, run: RunConfig): GrpoConfig {
  return {
    ...base,
    steps: run.steps,
    calculator: run.faulty ? 'faulty' : 'reliable',
    // Observation masking on: the loss covers the model's characters; off: the calculator's too.
    lossMask: run.masking ? 'model' : 'model+env',
    advantage: run.advantage,
    temperature: run.temperature,
    grader: run.grader,
    updatesPerBatch: run.updatesPerBatch,
    episode: run.episode,
    toolLatencyMs: run.toolLatencyMs,
  };
}
