<?php
// Render one PKP (OJS) frontend page through Smarty 4 with stand-ins for the PKP application.
//
// Reads one JSON request on stdin and writes the page to stdout; everything the application would
// compute (objects, menus, plugin hooks, translations) comes in the request. Objects are JSON maps
// {"__o": {method: value}, "__p": {property: value}}: a method given a string or integer first
// argument looks it up in its value when that is a map (getData('authors')). Calls the request did
// not foresee return null and are reported on stderr, as are Smarty's warnings. {"__list": [...]}
// is a collection (countable, iterable, toArray()).
//
// Request keys: smarty (Smarty's bootstrap.php), template_dirs (searched in order), compile_dir,
// template, translations (a JSON file: key -> message), messages (this page's own), vars, menus (name -> navigation menu object),
// hooks (hook name -> parts, each HTML or {template, vars} to render), header (HTML for {load_header}), stylesheet (HTML for {load_stylesheet}),
// base_url (the journal's URL, for {url}), date_formats (strftime-style name -> date() format).

namespace PKP\core {
    class PKPApplication
    {
        public const ROUTE_PAGE = 'page';
        public const ROUTE_COMPONENT = 'component';
        public const ROUTE_API = 'api';
        public const SITE_CONTEXT_ID = 0;
    }
}

namespace PKP\publication {
    class PKPPublication
    {
        public const STATUS_QUEUED = 1;
        public const STATUS_PUBLISHED = 3;
        public const STATUS_DECLINED = 4;
        public const STATUS_SCHEDULED = 5;
    }
}

namespace PKP\submission {
    class PKPSubmission
    {
        public const STATUS_QUEUED = 1;
        public const STATUS_PUBLISHED = 3;
        public const STATUS_DECLINED = 4;
        public const STATUS_SCHEDULED = 5;
    }
}

namespace PKP\security {
    class Role
    {
        public const ROLE_ID_MANAGER = 16;
        public const ROLE_ID_SUB_EDITOR = 17;
        public const ROLE_ID_ASSISTANT = 4097;
        public const ROLE_ID_REVIEWER = 4096;
    }
}

namespace APP\issue {
    class Issue
    {
    }
}

namespace APP\journal {
    class Journal
    {
        public const PUBLISHING_MODE_OPEN = 0;
        public const PUBLISHING_MODE_SUBSCRIPTION = 1;
        public const PUBLISHING_MODE_NONE = 2;
    }
}

namespace APP\submission {
    class Submission
    {
        public const ARTICLE_ACCESS_ISSUE_DEFAULT = 0;
        public const ARTICLE_ACCESS_OPEN = 1;
        public const AUTHOR_TOC_DEFAULT = 0;
        public const AUTHOR_TOC_HIDE = 1;
        public const AUTHOR_TOC_SHOW = 2;
    }
}

namespace APP\subscription {
    class Subscription
    {
        public const SUBSCRIPTION_STATUS_ACTIVE = 1;
        public const SUBSCRIPTION_STATUS_NEEDS_INFORMATION = 2;
        public const SUBSCRIPTION_STATUS_NEEDS_APPROVAL = 3;
        public const SUBSCRIPTION_STATUS_AWAITING_MANUAL_PAYMENT = 4;
        public const SUBSCRIPTION_STATUS_AWAITING_ONLINE_PAYMENT = 5;
    }
}

namespace {
    define('ROUTE_PAGE', 'page');
    define('ROUTE_COMPONENT', 'component');

    /** A stand-in for any application object: answers the calls the request lists. */
    class Stub
    {
        public function __construct(private array $methods, private array $props)
        {
        }

        public function __call(string $name, array $args)
        {
            if (!array_key_exists($name, $this->methods)) {
                fwrite(STDERR, "unanswered call: $name\n");
                return null;
            }
            $value = $this->methods[$name];
            if ($args && (is_string($args[0]) || is_int($args[0])) && is_array($value) && !array_is_list($value)) {
                return $value[$args[0]] ?? null;
            }
            return $value;
        }

        public function __get(string $name)
        {
            return $this->props[$name] ?? null;
        }

        public function __isset(string $name): bool
        {
            return isset($this->props[$name]);
        }
    }

    /** A list the templates may count, iterate or turn into an array (a Laravel collection in PKP). */
    class StubList implements IteratorAggregate, Countable
    {
        public function __construct(private array $items)
        {
        }

        public function getIterator(): Iterator
        {
            return new ArrayIterator($this->items);
        }

        public function count(): int
        {
            return count($this->items);
        }

        public function toArray(): array
        {
            return $this->items;
        }
    }

    function build($value)
    {
        if (!is_array($value)) {
            return $value;
        }
        if (array_key_exists('__list', $value)) {
            return new StubList(array_map('build', $value['__list']));
        }
        if (array_key_exists('__o', $value)) {
            return new Stub(array_map('build', $value['__o'] ?: []), array_map('build', $value['__p'] ?? []));
        }
        return array_map('build', $value);
    }

    $request = json_decode(stream_get_contents(STDIN), true, 512, JSON_THROW_ON_ERROR);
    require_once $request['smarty'];
    set_error_handler(function (int $no, string $message, string $file, int $line): bool {
        fwrite(STDERR, "php: $message (" . basename($file) . ":$line)\n");
        return true;
    });

    $messages = json_decode(file_get_contents($request['translations']), true, 512, JSON_THROW_ON_ERROR);
    $messages = array_merge($messages, $request['messages'] ?? []);
    $menus = array_map('build', $request['menus'] ?? []);
    $hooks = $request['hooks'] ?? [];
    $baseUrl = $request['base_url'];

    $smarty = new Smarty();
    $smarty->setTemplateDir($request['template_dirs']);
    $smarty->setCompileDir($request['compile_dir']);
    $smarty->muteUndefinedOrNullWarnings();

    $smarty->registerPlugin('function', 'translate', function (array $params) use ($messages): string {
        $key = $params['key'] ?? '';
        if (!array_key_exists($key, $messages)) {
            fwrite(STDERR, "untranslated: $key\n");
            return "##$key##";
        }
        return preg_replace_callback('/\{\$(\w+)\}/', fn ($m) => (string) ($params[$m[1]] ?? ''), $messages[$key]);
    });
    $smarty->registerPlugin('function', 'url', function (array $params) use ($baseUrl): string {
        $parts = [$params['page'] ?? 'index', $params['op'] ?? 'index'];
        $path = $params['path'] ?? [];
        foreach ((array) $path as $piece) {
            if (trim((string) $piece) !== '') {
                $parts[] = rawurlencode(trim((string) $piece));
            }
        }
        $url = $baseUrl . '/' . implode('/', $parts);
        return isset($params['anchor']) ? "$url#{$params['anchor']}" : $url;
    });
    $smarty->registerPlugin('function', 'load_header', fn () => $request['header'] ?? '');
    $smarty->registerPlugin('function', 'load_stylesheet', fn () => $request['stylesheet'] ?? '');
    $smarty->registerPlugin('function', 'load_script', fn () => '');
    $smarty->registerPlugin('function', 'csrf', fn () => '');
    $smarty->registerPlugin('function', 'call_hook', function (array $params, $template) use ($hooks): string {
        $out = '';
        foreach ($hooks[$params['name']] ?? [] as $part) {
            if (is_string($part)) {
                $out .= $part;
                continue;
            }
            $included = $template->smarty->createTemplate($part['template'], null, null, $template);
            $included->assign(array_map('build', $part['vars'] ?? []));
            $out .= $included->fetch();
        }
        return $out;
    });
    $smarty->registerPlugin('function', 'load_menu', function (array $params, $template) use ($menus): string {
        $menu = $menus[$params['name']] ?? null;
        if ($menu === null) {
            return '';
        }
        $template->smarty->assign([
            'navigationMenu' => $menu,
            'id' => $params['id'] ?? '',
            'ulClass' => $params['ulClass'] ?? '',
            'liClass' => $params['liClass'] ?? '',
        ]);
        return $template->smarty->fetch('frontend/components/navigationMenu.tpl');
    });
    $smarty->registerPlugin('modifier', 'strip_unsafe_html', fn ($html) => (string) $html);
    $smarty->registerPlugin('modifier', 'to_array', fn (...$items) => $items);
    $smarty->registerPlugin('modifier', 'concat', fn (...$items) => implode('', $items));
    $smarty->registerPlugin('modifier', 'json_encode', fn ($value) => json_encode($value));
    // PKP's parse_str fills the template variable it names; our URLs carry no query to fill it with
    $smarty->registerPlugin('modifier', 'parse_str', fn ($query, $into = null) => '');
    $smarty->registerPlugin('modifier', 'array_values', fn ($value) => array_values((array) $value));
    $smarty->registerPlugin('modifier', 'date_format', function ($date, $format = 'Y-m-d') {
        $time = is_numeric($date) ? (int) $date : strtotime((string) $date);
        return $time === false ? '' : date($format, $time);
    });

    $smarty->assign(array_map('build', $request['vars']));
    echo $smarty->fetch($request['template']);
}
