/**
 * One episode's transcript, character runs styled by who wrote them: the prompt, the model
 * (the characters the loss trains on) and the environment (masked out of the loss).
 */
import type { AuthorCode, EpisodeView } from '../../protocol/episode-view';

interface Run {
  author: AuthorCode;
  text: string;
}

/** Splits a transcript into runs of characters with the same author. */
export function authorRuns(text: string, authors: string): Run[] {
  const runs: Run[] = [];
  for (let i = 0; i < text.length; i++) {
    const author = (authors[i] ?? 'p') as AuthorCode;
    const last = runs.at(-1);
    if (last && last.author === author) last.text += text[i];
    else runs.push({ author, text: text[i]! });
  }
  return runs;
}

export const AUTHOR_LABEL: Record<AuthorCode, string> = {
  p: 'prompt (the harness)',
  m: 'model’s characters (trained on)',
  e: 'environment’s characters (masked out)',
};

/** trainedEnv: the loss covers the environment's characters too (masking off). */
export function Transcript({ episode, trainedEnv = false }: { episode: Pick<EpisodeView, 'text' | 'authors' | 'lied'>; trainedEnv?: boolean }) {
  return (
    <code className="transcript">
      {authorRuns(episode.text, episode.authors).map((run, i) => (
        <span key={i} className={`by-${run.author}${run.author === 'e' && episode.lied ? ' lie' : ''}${run.author === 'e' && trainedEnv ? ' trained' : ''}`} data-author={run.author}>
          {run.text}
        </span>
      ))}
    </code>
  );
}
