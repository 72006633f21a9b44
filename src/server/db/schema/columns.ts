import { type AnyPgColumn, uuid } from 'drizzle-orm/pg-core';

/** A required uuid column that points at `target` and goes when the row it points at is deleted. */
export const cascadingRef = (target: () => AnyPgColumn) => uuid().notNull().references(target, { onDelete: 'cascade' });
