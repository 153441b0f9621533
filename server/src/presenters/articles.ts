import type { Article, UserRef } from '@helpdesk/protocol';
import type { articles } from '../db/schema/index.js';

export interface ArticleRow {
  article: typeof articles.$inferSelect;
  creator: UserRef | null;
}

export const presentArticle = ({ article, creator }: ArticleRow): Article => ({
  id: article.id,
  title: article.title,
  content: article.content,
  category: article.category,
  keywords: article.keywords,
  helpfulCount: article.helpfulCount,
  creator: creator ? { id: creator.id, name: creator.name } : null,
  createdAt: article.createdAt.toISOString(),
  updatedAt: article.updatedAt.toISOString(),
});
