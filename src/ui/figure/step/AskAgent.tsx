/**
 * Ask the agent a sum of your own: the current policy plays it greedily with the reliable
 * calculator, and samples a group at the run's temperature with the calculator as switched.
 * Asking reads the weights between steps and changes nothing else; a bad sum gets a sentence
 * (aria-invalid, described by an alert) and nothing is sent.
 */
import { useId, useState, type FormEvent } from 'react';
import type { AskAnswer, AskQuestion } from '../../../protocol/messages';
import type { Temperature } from '../../../pipeline/settings';
import { answeredByText, parseSum, sumKindText } from './parse-sum';
import { Transcript } from './Transcript';
import type { WorkerStatus } from '../types';

interface Props {
  status: WorkerStatus;
  /** The trainer loaded once (an ask can be answered). */
  loaded: boolean;
  faulty: boolean;
  temperature: Temperature;
  waiting: readonly AskQuestion[];
  answer: AskAnswer | null;
  onAsk: (q: Omit<AskQuestion, 'id'>) => void;
}

export function AskAgent({ status, loaded, faulty, temperature, waiting, answer, onAsk }: Props) {
  const id = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const cannot =
    status === 'dead'
      ? 'The trainer has stopped; restart it to ask.'
      : status === 'error' && !loaded
        ? 'The trainer did not load, so there is no agent to ask.'
        : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = cannot ? { error: cannot } : parseSum(text);
    if ('error' in parsed) return setError(parsed.error);
    setError(null);
    onAsk({ sum: parsed.sum, faulty, temperature });
  };
  return (
    <section className="ask" aria-label="Ask the agent">
      <h3>Ask the agent</h3>
      <p className="ask-note" id={`${id}-hint`}>
        The agent as it is now — between steps while it trains — plays your sum. Asking never changes the run.
      </p>
      <form onSubmit={submit} noValidate>
        <label htmlFor={`${id}-sum`}>Your sum</label>
        <input
          id={`${id}-sum`}
          type="text"
          value={text}
          placeholder="57+38"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={error !== null}
          aria-describedby={error ? `${id}-error` : `${id}-hint`}
          onChange={(e) => (setText(e.currentTarget.value), setError(null))}
        />
        <button type="submit">Ask</button>
      </form>
      {error && (
        <p id={`${id}-error`} className="ask-error" role="alert">
          {error}
        </p>
      )}
      <p className="ask-note" aria-live="polite">
        {waiting.length > 0
          ? `Asking ${waiting.map((q) => `${q.sum.a}+${q.sum.b}`).join(', ')}… ${status === 'running' || status === 'stepping' ? 'answered at the next step boundary.' : status === 'loading' ? 'answered once the trainer has loaded.' : ''}`
          : ''}
      </p>
      {answer && <Answer answer={answer} earlier={error !== null} />}
    </section>
  );
}

/** The latest answer, headed by its sum; `earlier`: the reader has since typed something that is not a sum. */
function Answer({ answer: a, earlier }: { answer: AskAnswer; earlier: boolean }) {
  const sum = `${a.sum.a}+${a.sum.b}`;
  const head = (
    <p className="ask-for">
      {earlier ? 'The answer to your previous sum, ' : 'The agent’s answer to '}
      <strong>{sum}</strong>
    </p>
  );
  if ('error' in a) {
    return (
      <div className="ask-answer" aria-label={`The agent’s answer to ${sum}`} role="group">
        {head}
        <p className="ask-error">{a.error}</p>
      </div>
    );
  }
  const right = a.samples.filter((e) => e.reward > 0).length;
  const calc = a.faulty ? 'the faulty calculator' : 'the reliable calculator';
  return (
    <div className={`ask-answer${earlier ? ' earlier' : ''}`} aria-label={`The agent’s answer to ${sum}`} role="group">
      {head}
      <p className="ask-note">
        {sumKindText(a.sum, a.kind, a.demonstration)} Played by {answeredByText(a.by)}.
      </p>
      <p className="ask-greedy">
        Greedy, reliable calculator: <Transcript episode={{ ...a.greedy, trained: '' }} /> —{' '}
        {a.greedy.reward > 0
          ? 'right (reward 1)'
          : `wrong (reward 0${a.greedy.reason === 'answered' ? '' : `, ${a.greedy.reason}`})`}
      </p>
      <p className="ask-note">
        {a.samples.length} samples at temperature {a.temperature} with {calc}: {right} of {a.samples.length} right.
      </p>
      <ul className="ask-samples">
        {a.samples.map((e, i) => (
          <li key={i}>
            <Transcript episode={{ ...e, trained: '' }} /> reward {e.reward}
            {e.lied && <span className="lie-note"> calculator lied</span>}
            {e.reason !== 'answered' && <span className="reason"> {e.reason}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
