import type { UserRef } from '@helpdesk/protocol';
import { Combobox, Text, Textarea, useCombobox, type TextareaProps } from '@mantine/core';
import { useRef, useState } from 'react';
import { insertMention, matchingStaff, mentionQueryAt } from './mentions';

interface MentionTextareaProps extends Omit<TextareaProps, 'value' | 'onChange'> {
  value: string;
  onChange: (value: string) => void;
  /** The staff that may be mentioned; empty turns the autocomplete off. */
  staff: UserRef[];
  onMention: (person: UserRef) => void;
}

/**
 * A textarea where typing `@` offers staff by name: arrow keys move, Enter or Tab picks, Escape
 * closes (Mantine's Combobox handles the keys and the listbox semantics).
 */
export function MentionTextarea({ value, onChange, staff, onMention, ...props }: MentionTextareaProps) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const ref = useRef<HTMLTextAreaElement>(null);
  const [query, setQuery] = useState<{ start: number; query: string } | undefined>();
  const options = query && staff.length > 0 ? matchingStaff(staff, query.query) : [];

  const sync = (text: string, caret: number) => {
    const found = mentionQueryAt(text, caret);
    setQuery(found);
    if (found && staff.length > 0) {
      combobox.openDropdown();
      combobox.updateSelectedOptionIndex();
      requestAnimationFrame(() => combobox.selectFirstOption());
    } else combobox.closeDropdown();
  };

  const pick = (id: string) => {
    const person = staff.find((s) => String(s.id) === id);
    const el = ref.current;
    if (!person || !query || !el) return;
    const next = insertMention(value, query.start, el.selectionStart, person.name);
    onChange(next.text);
    onMention(person);
    setQuery(undefined);
    combobox.closeDropdown();
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(next.caret, next.caret);
    });
  };

  return (
    <Combobox store={combobox} onOptionSubmit={pick} position="bottom-start" withinPortal={false}>
      <Combobox.Target targetType="input">
        <Textarea
          {...props}
          ref={ref}
          value={value}
          onChange={(event) => {
            onChange(event.currentTarget.value);
            sync(event.currentTarget.value, event.currentTarget.selectionStart);
          }}
          onKeyDown={(event) => {
            // Tab picks like Enter while the list is open, as in most editors.
            if (event.key === 'Tab' && combobox.dropdownOpened && options.length > 0) {
              event.preventDefault();
              combobox.clickSelectedOption();
            }
            props.onKeyDown?.(event);
          }}
          onBlur={(event) => {
            combobox.closeDropdown();
            props.onBlur?.(event);
          }}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={options.length === 0} aria-label="Mention a staff member">
        <Combobox.Options aria-label="Staff to mention">
          {options.map((person) => (
            <Combobox.Option key={person.id} value={String(person.id)}>
              <Text size="sm">{person.name}</Text>
            </Combobox.Option>
          ))}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
