import type { ExcludedTopics } from '@hunktube/shared';

/** What a visitor can hide: a category, a performer or a tag (`exclude`'s kinds). */
export type TopicKind = 'category' | 'performer' | 'tag';

export const TOPIC_KINDS: readonly TopicKind[] = ['category', 'performer', 'tag'];

/** Each kind's list in ExcludedTopics (GET/PUT /api/me/hidden's fields). */
export const TOPIC_FIELD = { category: 'categories', performer: 'performers', tag: 'tags' } as const satisfies Record<TopicKind, keyof ExcludedTopics>;

/** At most this many ids of each kind in a member's list (PUT /api/me/hidden); a guest's cookie holds EXCLUDE_MAX in all. */
export const MEMBER_HIDDEN_MAX = 100;

export const isHidden = (topics: ExcludedTopics, kind: TopicKind, id: string): boolean => topics[TOPIC_FIELD[kind]].includes(id);

export const withTopic = (topics: ExcludedTopics, kind: TopicKind, id: string): ExcludedTopics =>
  isHidden(topics, kind, id) ? topics : { ...topics, [TOPIC_FIELD[kind]]: [...topics[TOPIC_FIELD[kind]], id].sort() };

export const withoutTopic = (topics: ExcludedTopics, kind: TopicKind, id: string): ExcludedTopics => ({
  ...topics,
  [TOPIC_FIELD[kind]]: topics[TOPIC_FIELD[kind]].filter((entry) => entry !== id),
});

/** Both lists in one, each id once, sorted. */
export const unionOf = (a: ExcludedTopics, b: ExcludedTopics): ExcludedTopics => ({
  categories: [...new Set([...a.categories, ...b.categories])].sort(),
  performers: [...new Set([...a.performers, ...b.performers])].sort(),
  tags: [...new Set([...a.tags, ...b.tags])].sort(),
});

export const topicCount = (topics: ExcludedTopics): number => topics.categories.length + topics.performers.length + topics.tags.length;
