/**
 * A chunk of code that does not arrive (a dropped connection, a site updated meanwhile) is said in
 * words by `said`, and what is around it stays: the plate's text when the figure's chunk fails,
 * the claims when the scale charts' chunk does.
 */
import { Component, type ReactNode } from 'react';

interface Props {
  said: (error: Error) => ReactNode;
  children: ReactNode;
}

export class ChunkError extends Component<Props, { error: Error | null }> {
  state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    const { error } = this.state;
    return error ? this.props.said(error) : this.props.children;
  }
}
