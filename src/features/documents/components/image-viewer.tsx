import { ActionIcon, Box, Group, Text, Tooltip } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { IconRotateClockwise2, IconZoomIn, IconZoomOut, IconZoomReset } from '@tabler/icons-react';
import { useState, type CSSProperties } from 'react';

const MIN_ZOOM = 0.25;
const MAX_ZOOM = 4;
const ZOOM_STEP = 1.25;

/** At zoom 1 the image fits the box (never enlarged); zoom and rotation keep it scrollable. */
function layout(
  natural: { width: number; height: number } | null,
  box: { width: number; height: number },
  zoom: number,
  rotation: number,
): { frame: CSSProperties; image: CSSProperties } {
  if (!natural || box.width === 0 || box.height === 0) {
    return {
      frame: { margin: 'auto' },
      image: {
        display: 'block',
        maxWidth: '100%',
        transform: `rotate(${rotation}deg) scale(${zoom})`,
      },
    };
  }
  const sideways = rotation % 180 !== 0;
  const turnedWidth = sideways ? natural.height : natural.width;
  const turnedHeight = sideways ? natural.width : natural.height;
  const scale = Math.min(1, box.width / turnedWidth, box.height / turnedHeight) * zoom;
  return {
    frame: {
      position: 'relative',
      flexShrink: 0,
      margin: 'auto',
      width: turnedWidth * scale,
      height: turnedHeight * scale,
    },
    image: {
      position: 'absolute',
      left: '50%',
      top: '50%',
      width: natural.width * scale,
      height: natural.height * scale,
      maxWidth: 'none',
      transform: `translate(-50%, -50%) rotate(${rotation}deg)`,
    },
  };
}

export function ImageViewer({ src, alt, height }: { src: string; alt: string; height: string }) {
  const [zoom, setZoom] = useState(1);
  const [rotation, setRotation] = useState(0);
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);
  const { ref: boxRef, width: boxWidth, height: boxHeight } = useElementSize<HTMLDivElement>();
  const zoomBy = (factor: number) =>
    setZoom((current) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, current * factor)));
  const styles = layout(natural, { width: boxWidth, height: boxHeight }, zoom, rotation);

  return (
    <Box>
      <Group gap="xs" mb="xs" role="toolbar" aria-label="Image controls">
        <Tooltip label="Zoom out">
          <ActionIcon
            variant="default"
            aria-label="Zoom out"
            onClick={() => zoomBy(1 / ZOOM_STEP)}
            disabled={zoom <= MIN_ZOOM}
          >
            <IconZoomOut size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
        <Text size="sm" w={48} ta="center" aria-live="polite">
          {Math.round(zoom * 100)}%
        </Text>
        <Tooltip label="Zoom in">
          <ActionIcon
            variant="default"
            aria-label="Zoom in"
            onClick={() => zoomBy(ZOOM_STEP)}
            disabled={zoom >= MAX_ZOOM}
          >
            <IconZoomIn size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Fit and reset rotation">
          <ActionIcon
            variant="default"
            aria-label="Reset zoom"
            onClick={() => {
              setZoom(1);
              setRotation(0);
            }}
          >
            <IconZoomReset size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Rotate 90° clockwise">
          <ActionIcon
            variant="default"
            aria-label="Rotate"
            onClick={() => setRotation((current) => (current + 90) % 360)}
          >
            <IconRotateClockwise2 size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Group>
      <Box
        ref={boxRef}
        bg="gray.1"
        style={{ height, overflow: 'auto', display: 'flex', borderRadius: 8 }}
      >
        <div style={styles.frame}>
          <img
            src={src}
            alt={alt}
            data-zoom={zoom}
            data-rotation={rotation}
            onLoad={(event) =>
              setNatural({
                width: event.currentTarget.naturalWidth,
                height: event.currentTarget.naturalHeight,
              })
            }
            style={styles.image}
          />
        </div>
      </Box>
    </Box>
  );
}
