import { and, desc, eq, ilike, sql } from 'drizzle-orm';
import { MESSAGES, type Article, type ArticleListQuery, type CreateArticleBody, type UpdateArticleBody } from '@helpdesk/protocol';
import { articleVotes, articles, users } from '../db/schema/index.js';
import { NotFoundError } from '../lib/errors.js';
import { presentArticle, type ArticleRow } from '../presenters/articles.js';
import type { Actor } from '../lib/actor.js';
import { createReadMemo } from './readMemo.js';
import type { ServiceContext } from './context.js';
import { returnedRow } from '../db/rows.js';
import { containsPattern } from '../db/search.js';

export type KnowledgeService = ReturnType<typeof createKnowledgeService>;

/** Mirrors articles_search_trgm_idx so searches use the index. */
const searchable = sql`article_search_text(${articles.title}, ${articles.content}, ${articles.keywords})`;

/** Who may write articles is the route's `auth.allow(canManageArticles)`; no write rule here depends on the row. */
/** Knowledge answers are the same for everyone: kept per question until a write to a table they read. */
const KEPT_ANSWERS = 500;

export function createKnowledgeService(context: ServiceContext) {
  const { db, withTransaction, announceWrite } = context;
  const keptLists = createReadMemo<{ articles: Article[]; total: number }>(context, KEPT_ANSWERS);
  const keptArticles = createReadMemo<Article>(context, KEPT_ANSWERS);
  const selectArticles = () =>
    db
      .select({ article: articles, creator: { id: users.id, name: users.name } })
      .from(articles)
      .leftJoin(users, eq(users.id, articles.creatorId));

  const load = (id: number): Promise<Article> =>
    keptArticles(String(id), async () => {
      const [row] = await selectArticles().where(eq(articles.id, id));
      if (!row) throw new NotFoundError(MESSAGES.knowledge.notFound);
      return presentArticle(row);
    });

  const readList = async (query: ArticleListQuery): Promise<{ articles: Article[]; total: number }> => {
    const where = and(
      query.category ? eq(articles.category, query.category) : undefined,
      query.search ? ilike(searchable, containsPattern(query.search)) : undefined,
    );
    const [rows, [count]] = await Promise.all([
      selectArticles()
        .where(where)
        .orderBy(desc(articles.createdAt), desc(articles.id))
        .limit(query.limit)
        .offset((query.page - 1) * query.limit),
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(articles)
        .where(where),
    ]);
    return { articles: (rows as ArticleRow[]).map(presentArticle), total: count?.n ?? 0 };
  };

  return {
    list(query: ArticleListQuery): Promise<{ articles: Article[]; total: number }> {
      return keptLists(JSON.stringify(query), () => readList(query));
    },
    get: load,

    // One statement each: announced once it returned, so every reader's page follows (unitOfWork.ts).
    async create(actor: Actor, input: CreateArticleBody): Promise<Article> {
      const id = await announceWrite(async (writer, emit) => {
        const inserted = await writer
          .insert(articles)
          .values({ ...input, creatorId: actor.id })
          .returning({ id: articles.id });
        const articleId = returnedRow(inserted, 'the article insert').id;
        emit('article.changed', { articleId, action: 'created' });
        return articleId;
      });
      return load(id);
    },

    async update(id: number, input: UpdateArticleBody): Promise<Article> {
      await announceWrite(async (writer, emit) => {
        const updated = await writer
          .update(articles)
          .set({ ...input, updatedAt: new Date() })
          .where(eq(articles.id, id))
          .returning({ id: articles.id });
        if (updated.length === 0) throw new NotFoundError(MESSAGES.knowledge.notFound);
        emit('article.changed', { articleId: id, action: 'updated' });
      });
      return load(id);
    },

    async remove(id: number): Promise<void> {
      await announceWrite(async (writer, emit) => {
        const deleted = await writer.delete(articles).where(eq(articles.id, id)).returning({ id: articles.id });
        if (deleted.length === 0) throw new NotFoundError(MESSAGES.knowledge.notFound);
        emit('article.changed', { articleId: id, action: 'deleted' });
      });
    },

    /** A signed-in reader counts once per article; anonymous votes are rate limited by the route. */
    async markHelpful(actor: Actor | undefined, id: number): Promise<number> {
      return withTransaction(async (tx, emit) => {
        const [exists] = await tx.select({ count: articles.helpfulCount }).from(articles).where(eq(articles.id, id));
        if (!exists) throw new NotFoundError(MESSAGES.knowledge.notFound);
        if (actor) {
          const inserted = await tx
            .insert(articleVotes)
            .values({ articleId: id, userId: actor.id })
            .onConflictDoNothing()
            .returning({ id: articleVotes.articleId });
          if (inserted.length === 0) return exists.count;
        }
        const updated = await tx
          .update(articles)
          .set({ helpfulCount: sql`${articles.helpfulCount} + 1` })
          .where(eq(articles.id, id))
          .returning({ count: articles.helpfulCount });
        const { count } = returnedRow(updated, 'the helpful count update');
        emit('article.helpful', { articleId: id, helpfulCount: count });
        return count;
      });
    },
  };
}
