import { Stack, Text } from '@mantine/core';
import { IconFileUnknown } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { fileTypeOfMimeType } from '../../../../contract/file-type.ts';
import { ImageViewer } from './image-viewer.tsx';

/** Leaves room for the viewer's header, details and buttons on a 720-pixel-high screen. */
const PREVIEW_HEIGHT = 'max(240px, calc(100dvh - 330px))';

/** Types the browser renders safely from a blob: no HTML or SVG, which could run script. */
const PREVIEWABLE_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export function DocumentPreview({
  objectUrl,
  mimeType,
  fileName,
}: {
  objectUrl: string;
  mimeType: string;
  fileName: string;
}) {
  if (mimeType === 'application/pdf')
    return <PdfPreview objectUrl={objectUrl} fileName={fileName} />;
  if (PREVIEWABLE_IMAGES.has(mimeType))
    return <ImageViewer src={objectUrl} alt={fileName} height={PREVIEW_HEIGHT} />;
  // mimeType comes from the bytes (identifyFileType), so the description names what the file is.
  const fileType = fileTypeOfMimeType(mimeType);
  return (
    <Stack align="center" gap="xs" py="xl">
      <IconFileUnknown size={40} aria-hidden />
      {fileType.document ? (
        <>
          <Text fw={500}>
            This {fileType.description.replace(/^an? /, '')} cannot be shown here
          </Text>
          <Text size="sm" c="dimmed" ta="center">
            Browsers cannot display this image format. Download it to view it.
          </Text>
        </>
      ) : (
        <>
          <Text fw={500}>This file type cannot be shown</Text>
          <Text size="sm" c="dimmed" ta="center">
            It is {fileType.description}, not one of the document types KYC Desk accepts (PDF, JPEG,
            PNG, TIFF, WebP, HEIC). Download keeps a copy of its exact bytes.
          </Text>
        </>
      )}
    </Stack>
  );
}

/**
 * A PDF in the browser's own viewer. That viewer keeps every key once it has focus (Escape never
 * reaches the dialog), so focus is handed back to the frame's wrapper as soon as it moves inside:
 * the PDF still scrolls and zooms with the mouse, and the keyboard stays with the page. Its
 * toolbar is hidden, as it would name the blob's UUID; the dialog's title is the file name.
 */
function PdfPreview({ objectUrl, fileName }: { objectUrl: string; fileName: string }) {
  const wrapper = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLIFrameElement>(null);

  useEffect(() => {
    function takeFocusBack() {
      // The window blurs as focus enters the frame; activeElement is the frame a moment later.
      requestAnimationFrame(() => {
        if (document.activeElement === frame.current) wrapper.current?.focus();
      });
    }
    window.addEventListener('blur', takeFocusBack);
    return () => window.removeEventListener('blur', takeFocusBack);
  }, []);

  return (
    <div
      ref={wrapper}
      tabIndex={-1}
      aria-label={`Preview of ${fileName}`}
      role="group"
      style={{ outline: 'none' }}
    >
      <iframe
        ref={frame}
        src={`${objectUrl}#toolbar=0&navpanes=0`}
        title={`Preview of ${fileName}`}
        style={{ width: '100%', height: PREVIEW_HEIGHT, border: 0, borderRadius: 8 }}
      />
    </div>
  );
}
