// Renders PLOS Wombat's FreeMarker page templates for scilabel's corpus generator.
//
// Usage: java -cp freemarker.jar:DIR RenderFtl TEMPLATE DIR...
// Reads one JSON data model per line from standard input and writes each page to standard output,
// followed by a line holding only the form feed character. Templates are looked up in the DIRs in
// order (as Wombat's theme inheritance does); the data model reaches the templates as the string
// "modelJson", which the entry template decodes with ?eval_json. A statement that fails (a variable
// Wombat's services would provide and the model lacks) is skipped, as FreeMarker's IGNORE handler does.

import freemarker.cache.FileTemplateLoader;
import freemarker.cache.MultiTemplateLoader;
import freemarker.cache.TemplateLoader;
import freemarker.template.Configuration;
import freemarker.template.Template;
import freemarker.template.TemplateExceptionHandler;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

public class RenderFtl {
  public static void main(String[] args) throws Exception {
    TemplateLoader[] loaders = new TemplateLoader[args.length - 1];
    for (int i = 1; i < args.length; i++) {
      loaders[i - 1] = new FileTemplateLoader(new File(args[i]));
    }
    Configuration cfg = new Configuration(Configuration.VERSION_2_3_31);
    cfg.setTemplateLoader(new MultiTemplateLoader(loaders));
    cfg.setDefaultEncoding("UTF-8");
    cfg.setTemplateExceptionHandler(TemplateExceptionHandler.IGNORE_HANDLER);
    cfg.setLogTemplateExceptions(false);
    Template template = cfg.getTemplate(args[0]);
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    Writer out = new OutputStreamWriter(System.out, StandardCharsets.UTF_8);
    String line;
    while ((line = in.readLine()) != null) {
      Map<String, Object> model = new HashMap<>();
      model.put("modelJson", line);
      StringWriter page = new StringWriter();
      try {
        template.process(model, page);
        out.write(page.toString());
      } catch (Exception e) {
        out.write("<!-- RenderFtl error: " + e.getMessage().replace("--", "- -") + " -->");
      }
      out.write("\n\f\n");
      out.flush();
    }
  }
}
