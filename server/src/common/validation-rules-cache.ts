import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type ValidationMetadata = ReturnType<Storage['getTargetValidationMetadatas']>[number];

/**
 * class-validator finds a DTO's rules anew on every validation: it walks every registered class (an
 * `instanceof` each) and filters their rules, then groups them by property. That lookup was most of the
 * cost of validating a chat message sent over a socket. A class's rules are fixed once it is defined, so the
 * answers are kept per class and options; adding any rule (a class defined later) forgets them all.
 */
export function cacheValidationRules(storage: Storage = getMetadataStorage()): void {
  const marked = storage as Storage & { rulesCached?: true };
  if (marked.rulesCached) return;
  marked.rulesCached = true;

  const find = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const add = storage.addValidationMetadata.bind(storage);
  let found = new Map<string, ValidationMetadata[]>();
  let classIds = new WeakMap<object, number>();
  let grouped = new WeakMap<ValidationMetadata[], ReturnType<Storage['groupByPropertyName']>>();
  let nextId = 0;

  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    let id = classIds.get(target);
    if (id === undefined) classIds.set(target, (id = nextId++));
    const key = `${id}|${schema}|${always}|${strictGroups}|${groups?.join(',') ?? ''}`;
    let rules = found.get(key);
    if (!rules) found.set(key, (rules = find(target, schema, always, strictGroups, groups)));
    return rules;
  };
  storage.groupByPropertyName = (rules) => {
    let byProperty = grouped.get(rules);
    if (!byProperty) grouped.set(rules, (byProperty = group(rules)));
    return byProperty;
  };
  storage.addValidationMetadata = (rule) => {
    found = new Map();
    classIds = new WeakMap();
    grouped = new WeakMap();
    add(rule);
  };
}
