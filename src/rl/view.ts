// Moved to src/protocol/episode-view.ts (the page's wire format); kept until the trainer stops producing views.
export { toView, type AuthorCode, type EpisodeView } from '../protocol/episode-view';
