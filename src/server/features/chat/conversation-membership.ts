import { LRUCache } from 'lru-cache';
import type { InvalidationBus } from '../../infra/invalidation-bus.ts';

/** A match as the membership checks see it: its two users never change; `isLive` can end. */
export type PairMembership = { kind: 'match'; conversationId: string; userA: string; userB: string; isLive: boolean };
/**
 * A group (docs/decisions/0056): its current members (`group-changed` on the bus when they change),
 * and for each member the members they blocked (whom they do not hear typing; session 17).
 */
export type GroupMembership = {
  kind: 'group';
  conversationId: string;
  members: readonly string[];
  isLive: boolean;
  blockedBy?: Readonly<Record<string, readonly string[]>>;
};
export type Membership = PairMembership | GroupMembership;

/** Whether the user is one of the conversation's (current) members. */
export const hasMember = (found: Membership, userId: string) =>
  found.kind === 'group' ? found.members.includes(userId) : found.userA === userId || found.userB === userId;

const SIZE = 50_000;
/** A safety net like the sessions' (docs/decisions/0018 §2): a lost `pair-ended` heals within it. */
const TTL_MS = 60_000;
/** Unknown conversations are remembered briefly: a conversation made since then is found soon. */
const NEGATIVE_TTL_MS = 5_000;

export type MembershipCache = ReturnType<typeof createMembershipCache>;

/**
 * Which users a conversation has, and whether it is still live, per node (docs/decisions/0018 §5):
 * an event for a conversation the user is not in is refused from memory once the conversation is
 * known; an unknown id costs one read, then is cached (negative entries too, for 5 s). `pair-ended`
 * on the invalidation bus (unmatch, block, deletion; any node) marks it ended at once,
 * `group-changed` (a group's members or state) forgets it; `reset` forgets everything. Writes never trust `isLive`: their SQL re-checks under the row lock.
 */
export function createMembershipCache(deps: {
  bus: InvalidationBus;
  load(conversationId: string): Promise<Membership | undefined>;
}) {
  const known = new LRUCache<string, Membership | false>({ max: SIZE, ttl: TTL_MS });
  deps.bus.subscribe((event) => {
    if (event.type === 'reset') known.clear();
    else if (event.type === 'pair-ended') {
      for (const id of event.conversationIds) {
        const entry = known.get(id);
        if (entry) known.set(id, { ...entry, isLive: false });
        else known.delete(id);
      }
    } else if (event.type === 'group-changed') {
      // Read again on next use: the change is committed before it is published.
      for (const id of event.conversationIds) known.delete(id);
    }
  });
  return {
    /** The conversation's membership, or undefined when there is no such conversation. */
    async get(conversationId: string): Promise<Membership | undefined> {
      const cached = known.get(conversationId);
      if (cached !== undefined) return cached || undefined;
      const loaded = await deps.load(conversationId);
      known.set(conversationId, loaded ?? false, loaded ? {} : { ttl: NEGATIVE_TTL_MS });
      return loaded;
    },
    /** Whether the user is one of its members (no I/O once the conversation is known). */
    async isMember(userId: string, conversationId: string): Promise<Membership | undefined> {
      const found = await this.get(conversationId);
      return found && hasMember(found, userId) ? found : undefined;
    },
    /**
     * What this node knows without I/O: the membership, `false` for an id known not to exist, or
     * undefined when it has to be read (or a write's own statement checks it: the send).
     */
    peek: (conversationId: string): Membership | false | undefined => known.get(conversationId),
    /** A write's statement read the conversation itself (a cold send): keep what it saw. */
    remember(membership: PairMembership) {
      if (!known.has(membership.conversationId)) known.set(membership.conversationId, membership);
    },
    /** This node learned of a change itself (a new conversation, a refused write): forget it. */
    forget: (conversationId: string) => known.delete(conversationId),
  };
}
