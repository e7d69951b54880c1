import { Component } from 'preact';

/**
 * A component that renders again only when a prop changes by identity (Preact's `memo` without `preact/compat`).
 * The conversation's messages, parts and markdown stretches are immutable values: a delta re-renders the streaming
 * answer's last stretch alone, however long the conversation. Keep callback props stable.
 */
export abstract class Pure<P> extends Component<P> {
  override shouldComponentUpdate(next: P): boolean {
    for (const key in next) if (next[key] !== this.props[key]) return true;
    return false;
  }
}
