import {
  ActionIcon,
  Menu,
  useComputedColorScheme,
  useMantineColorScheme,
  type MantineColorScheme,
} from '@mantine/core';
import { IconCheck, IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react';

export const COLOR_SCHEME_CHOICES: readonly {
  value: MantineColorScheme;
  label: string;
  Icon: typeof IconSun;
}[] = [
  { value: 'light', label: 'Light', Icon: IconSun },
  { value: 'dark', label: 'Dark', Icon: IconMoon },
  { value: 'auto', label: 'Match the system', Icon: IconDeviceDesktop },
];

/** The header's colour-scheme menu: light, dark, or the system's; kept per browser by Mantine. */
export function ColorSchemeToggle() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light');
  const CurrentIcon = computed === 'dark' ? IconMoon : IconSun;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="default" size="lg" aria-label="Colour scheme">
          <CurrentIcon size={18} stroke={1.5} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Colour scheme</Menu.Label>
        {COLOR_SCHEME_CHOICES.map(({ value, label, Icon }) => (
          <Menu.Item
            key={value}
            aria-current={colorScheme === value ? 'true' : undefined}
            leftSection={<Icon size={16} stroke={1.5} aria-hidden />}
            rightSection={colorScheme === value ? <IconCheck size={16} aria-hidden /> : null}
            onClick={() => setColorScheme(value)}
          >
            {label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
