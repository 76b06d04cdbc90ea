// The task pane's section tabs at any width: the tabs that fit show in the strip, the rest in a
// "More" menu (Fluent's Overflow pattern), so a 320 px pane never scrolls sideways. The chosen
// tab has the highest priority and always stays in the strip.
import {
  Button,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  Overflow,
  OverflowItem,
  Tab,
  TabList,
  makeStyles,
  useIsOverflowItemVisible,
  useOverflowMenu,
} from "@fluentui/react-components";

export interface SectionTab<T extends string> {
  value: T;
  label: string;
}

const useStyles = makeStyles({
  // The row Overflow measures: as wide as the pane, never wider.
  row: { display: "flex", alignItems: "center", minWidth: 0, overflow: "hidden" },
  strip: { minWidth: 0, flexShrink: 1 },
});

function MoreItem<T extends string>({ tab, onSelect }: { tab: SectionTab<T>; onSelect(value: T): void }) {
  const visible = useIsOverflowItemVisible(tab.value);
  if (visible) return null;
  return <MenuItem onClick={() => onSelect(tab.value)}>{tab.label}</MenuItem>;
}

function MoreMenu<T extends string>({ tabs, onSelect }: { tabs: readonly SectionTab<T>[]; onSelect(value: T): void }) {
  const { ref, isOverflowing, overflowCount } = useOverflowMenu<HTMLButtonElement>();
  if (!isOverflowing) return null;
  return (
    <Menu positioning={{ position: "below", align: "end" }}>
      <MenuTrigger disableButtonEnhancement>
        <Button ref={ref} appearance="transparent" aria-label={`More sections (${overflowCount})`}>
          More ▾
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {tabs.map((t) => (
            <MoreItem key={t.value} tab={t} onSelect={onSelect} />
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}

export function SectionTabs<T extends string>({
  tabs,
  selected,
  onSelect,
  label,
}: {
  tabs: readonly SectionTab<T>[];
  selected: T;
  onSelect(value: T): void;
  label: string;
}) {
  const styles = useStyles();
  return (
    <Overflow minimumVisible={1}>
      {/* The More button sits beside the tab list, not in it: a tab list holds only tabs. */}
      <div className={styles.row}>
        <TabList className={styles.strip} selectedValue={selected} onTabSelect={(_, d) => onSelect(d.value as T)} aria-label={label}>
          {tabs.map((t) => (
            <OverflowItem key={t.value} id={t.value} priority={t.value === selected ? 2 : 1}>
              <Tab value={t.value}>{t.label}</Tab>
            </OverflowItem>
          ))}
        </TabList>
        <MoreMenu tabs={tabs} onSelect={onSelect} />
      </div>
    </Overflow>
  );
}
