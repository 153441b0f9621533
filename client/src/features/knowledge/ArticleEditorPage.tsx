import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { PageLoader } from '../../components/PageLoader';
import { ArticleForm } from './ArticleForm';
import { ArticleLoadError, BackToKnowledgeBase } from './ArticleLoadError';
import { useArticle } from './useArticle';

/** /knowledge/new and /knowledge/:id/edit (staff only, guarded by the route). */
export default function ArticleEditorPage({ id }: { id?: number }) {
  return id === undefined ? (
    <EditorFrame title="New Article">
      <ArticleForm />
    </EditorFrame>
  ) : (
    <EditExisting id={id} />
  );
}

function EditExisting({ id }: { id: number }) {
  const article = useArticle(id);
  if (article.isPending) return <PageLoader />;
  if (article.isError) return <ArticleLoadError error={article.error} />;
  // Mounted once the article is here, so the form starts from its saved values.
  return (
    <EditorFrame title={`Edit Article #${id}`}>
      <ArticleForm article={article.data.article} />
    </EditorFrame>
  );
}

function EditorFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="md" maw={960}>
      <BackToKnowledgeBase />
      <div>
        <Title order={1}>{title}</Title>
        <Text c="dimmed" mt={4}>
          Write in Markdown; the Preview tab shows the article as readers will see it.
        </Text>
      </div>
      {children}
    </Stack>
  );
}
