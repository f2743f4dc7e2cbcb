// The pull policy a container image gets by default: Always for the latest tag (or none), IfNotPresent otherwise.

// An image reference as the container runtimes parse it: [domain[:port]/]path[:tag][@digest].
const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const DOMAIN = '(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]+)?/)';
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE = new RegExp(`^${DOMAIN}?${COMPONENT}(?:/${COMPONENT})*(?::(${TAG}))?(?:@(${DIGEST}))?$`);

/**
 * The tag the image would be pulled with: its own, "latest" when it names neither tag nor digest,
 * "" when it pins only a digest or does not parse.
 */
export const imageTag = (image: string): string => {
  const m = REFERENCE.exec(image);
  if (!m) return '';
  const [, tag, digest] = m;
  return tag ?? (digest ? '' : 'latest');
};

export const defaultPullPolicy = (image: string | undefined): 'Always' | 'IfNotPresent' =>
  imageTag(image ?? '') === 'latest' ? 'Always' : 'IfNotPresent';
