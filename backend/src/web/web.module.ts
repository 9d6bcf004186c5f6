import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { StorageModule } from '../media/storage.module';
import { TaxonomyModule } from '../taxonomy/taxonomy.module';
import { VideosModule } from '../videos/videos.module';
import { PagesService } from './pages.service';
import { loadPageRenderer, loadWebBuild } from './web-build';
import { PAGE_RENDERER, WEB_BUILD } from './web.tokens';

/**
 * The web client as the server serves it (docs/web-client.md › "Pages' heads from the server", "Delivery"):
 * its files, precompressed and cached by kind, and every page's shell with that page's head and the bootstrap
 * block. Served by `webClientMiddleware` (app.factory.ts), before Nest's routing; reads the catalogue through
 * the videos' and the taxonomy's services and who is signed in through auth's.
 */
@Module({})
export class WebModule {
  static forRoot(webRoot: string | null): DynamicModule {
    return {
      module: WebModule,
      imports: [VideosModule, TaxonomyModule, AuthModule, StorageModule],
      providers: [
        { provide: WEB_BUILD, useFactory: () => loadWebBuild(webRoot) },
        { provide: PAGE_RENDERER, useFactory: () => loadPageRenderer(webRoot) },
        PagesService,
      ],
      exports: [PagesService],
    };
  }
}
