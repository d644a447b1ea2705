/**
 * One episode's transcript, character runs styled by who wrote them — the prompt, the model,
 * the environment — and by whether the loss covered them, as the worker's record says
 * (rl/credit.ts decided it for the run's settings; nothing here re-decides it).
 */
import type { AuthorLetter, EpisodeView } from '../../../protocol/episode-view';

interface Run {
  author: AuthorLetter;
  /** The loss covered these characters. */
  trained: boolean;
  text: string;
}

/**
 * Splits a transcript into runs of characters with the same author and the same `trained` flag.
 * @internal A test seam: exported for its test.
 */
export function authorRuns(text: string, authors: string, trained = ''): Run[] {
  const runs: Run[] = [];
  for (let i = 0; i < text.length; i++) {
    const author = (authors[i] ?? 'p') as AuthorLetter;
    const covered = trained[i] === '1';
    const last = runs.at(-1);
    if (last && last.author === author && last.trained === covered) last.text += text[i];
    else runs.push({ author, trained: covered, text: text[i]! });
  }
  return runs;
}

export const AUTHOR_LABEL: Record<AuthorLetter, string> = {
  p: 'prompt (the harness)',
  m: 'model’s characters (trained on)',
  e: 'environment’s characters (masked out)',
};

/** A character the model did not write but the loss covered (masking off) is marked `trained`. */
export function Transcript({ episode }: { episode: Pick<EpisodeView, 'text' | 'authors' | 'trained' | 'lied'> }) {
  return (
    <code className="transcript">
      {authorRuns(episode.text, episode.authors, episode.trained).map((run, i) => (
        <span
          key={i}
          className={`by-${run.author}${run.author === 'e' && episode.lied ? ' lie' : ''}${run.author !== 'm' && run.trained ? ' trained' : ''}`}
          data-author={run.author}
        >
          {run.text}
        </span>
      ))}
    </code>
  );
}
