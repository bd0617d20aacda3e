<#--
  The entry template scilabel renders Wombat's article page through (RenderFtl.java): it decodes the
  data model, makes its keys global, stands in for the directives Wombat's Java code provides (site
  links, configuration, scripts and style sheets, build information), then includes Wombat's own
  article/article.ftl (this template sits beside it, so that its relative includes resolve). Links point nowhere (""), scripts and style sheets are left out (the page's
  style sheet is inlined afterwards), configuration answers from the model's "config" map.
-->
<#assign model = modelJson?eval_json />
<#list model?keys as key><@"<#global ${key} = model[key]>"?interpret /></#list>

<#macro siteLink others...><#nested ""></#macro>
<#macro appLink others...><#nested ""></#macro>
<#macro js others...></#macro>
<#macro renderJs others...></#macro>
<#macro cssLink others...></#macro>
<#macro renderCssLinks others...></#macro>
<#macro buildInfo others...></#macro>
<#macro replaceParams others...></#macro>
<#macro themeConfig map value><#nested (config[map + "." + value])!""></#macro>
<#macro globalConfig key><#nested (config["global." + key])!""></#macro>
<#macro isDevFeatureEnabled feature><#nested false></#macro>
<#macro xform xml textOnly=false>${xml}</#macro>
<#macro formatJsonDate date format>${date?date("yyyy-MM-dd")?string(format)}</#macro>
<#macro pluralize count value>${value}<#if count != 1>s</#if></#macro>
<#macro abbreviatedName><#local name><#nested></#local>${name?trim?substring(0, 1)}.</#macro>

<#include "article.ftl" />
