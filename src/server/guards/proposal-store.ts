import type { ParameterValue } from '../core/engine';
import type { Db } from '../platform/database/db';
import { storableJson, storableText } from '../platform/database/storable';
import { isUuid } from '../platform/database/uuid';

// Proposals (migration 015): calls that wait for the shopper's yes. Every state change is one conditional UPDATE, so
// two answers racing each other (a double click, a typed yes beside a button press, two instances) cannot both win:
// only the one that finds the proposal still `pending` claims it, and only a claimed yes makes the call.

export type ProposalStatus = 'pending' | 'accepted' | 'declined' | 'expired';

/** What the call is: one of the widget's custom actions by name, or the order-cancellation webhook. */
export type ProposedCall =
  | { kind: 'action'; action: string; params: Record<string, ParameterValue> }
  | { kind: 'cancel-order'; action: 'order-cancellation'; params: { orderId: string; reason?: string } };

export type Proposal = ProposedCall & {
  id: string;
  conversationId: string;
  /** The reply (turn) that proposed it. */
  proposedIn: string;
  question: string;
  status: ProposalStatus;
  /** The user message whose turn made or declined the call. */
  answeredBy: string | null;
  /** That message's `clientMessageId`: `confirm-<id>` when a button answered (so a repeat can re-attach). */
  answeredByClientId: string | null;
};

export interface ProposalStore {
  /** Stores a proposal as the conversation's one pending proposal; an earlier pending one expires. */
  create(conversationId: string, proposedIn: string, call: ProposedCall, question: string): Promise<Proposal>;
  /** A proposal of this conversation (null for another conversation's id, or a malformed one). */
  find(conversationId: string, id: string): Promise<Proposal | null>;
  /** The conversation's pending proposal, if any. */
  pending(conversationId: string): Promise<Proposal | null>;
  /** Answers a pending proposal; null when it is no longer pending (answered, expired): then nothing may be called. */
  claim(id: string, answer: 'yes' | 'no', answeredBy: string): Promise<Proposal | null>;
  /** The proposal a user message answered (yes or no), if any: what a taken-over turn answered before. */
  answeredBy(conversationId: string, userMessageId: string): Promise<Proposal | null>;
  /** Ends a pending proposal unanswered (the shopper wrote something else). */
  expire(id: string): Promise<void>;
}

interface ProposalRow {
  id: string;
  conversation_id: string;
  proposed_in: string;
  kind: 'action' | 'cancel-order';
  action: string;
  params: Record<string, ParameterValue>;
  question: string;
  status: ProposalStatus;
  answered_by: string | null;
  answered_by_client_id?: string | null;
}

const COLUMNS = 'id, conversation_id, proposed_in, kind, action, params, question, status, answered_by';

const toProposal = (r: ProposalRow): Proposal =>
  ({
    id: r.id,
    conversationId: r.conversation_id,
    proposedIn: r.proposed_in,
    kind: r.kind,
    action: r.action,
    params: r.params,
    question: r.question,
    status: r.status,
    answeredBy: r.answered_by,
    answeredByClientId: r.answered_by_client_id ?? null,
  }) as Proposal;

export function createProposalStore(db: Db): ProposalStore {
  return {
    create(conversationId, proposedIn, call, question) {
      return db.transaction(async (tx) => {
        await tx.query(
          `UPDATE proposals SET status = 'expired', answered_at = now()
           WHERE conversation_id = $1 AND status = 'pending'`,
          [conversationId],
        );
        const [row] = await tx.query<ProposalRow>(
          `INSERT INTO proposals (conversation_id, proposed_in, kind, action, params, question)
           VALUES ($1, $2, $3, $4, $5::jsonb, $6) RETURNING ${COLUMNS}`,
          [
            conversationId,
            proposedIn,
            call.kind,
            storableText(call.action),
            storableJson(call.params),
            storableText(question),
          ],
        );
        return toProposal(row);
      });
    },
    async find(conversationId, id) {
      if (!isUuid(id)) return null;
      const [row] = await db.query<ProposalRow>(
        `SELECT ${COLUMNS.replace(/(\w+)/g, 'p.$1')}, m.client_message_id AS answered_by_client_id
         FROM proposals p LEFT JOIN messages m ON m.id = p.answered_by
         WHERE p.id = $1 AND p.conversation_id = $2`,
        [id, conversationId],
      );
      return row ? toProposal(row) : null;
    },
    async pending(conversationId) {
      const [row] = await db.query<ProposalRow>(
        `SELECT ${COLUMNS} FROM proposals WHERE conversation_id = $1 AND status = 'pending'`,
        [conversationId],
      );
      return row ? toProposal(row) : null;
    },
    async claim(id, answer, answeredBy) {
      const [row] = await db.query<ProposalRow>(
        `UPDATE proposals SET status = $2, answered_by = $3, answered_at = now()
         WHERE id = $1 AND status = 'pending' RETURNING ${COLUMNS}`,
        [id, answer === 'yes' ? 'accepted' : 'declined', answeredBy],
      );
      return row ? toProposal(row) : null;
    },
    async answeredBy(conversationId, userMessageId) {
      const [row] = await db.query<ProposalRow>(
        `SELECT ${COLUMNS} FROM proposals
          WHERE conversation_id = $1 AND answered_by = $2 AND status IN ('accepted', 'declined')`,
        [conversationId, userMessageId],
      );
      return row ? toProposal(row) : null;
    },
    async expire(id) {
      await db.query(
        `UPDATE proposals SET status = 'expired', answered_at = now() WHERE id = $1 AND status = 'pending'`,
        [id],
      );
    },
  };
}
