import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { StorageModule } from '../media/storage.module';
import { VideoStoreModule } from '../videos/video-store.module';
import { PagesService } from './pages.service';
import { loadPageRenderer, loadWebBuild } from './web-build';
import { PAGE_RENDERER, WEB_BUILD } from './web.tokens';

/**
 * The web client as the server serves it (docs/web-client.md › "One author per page", "Delivery"): its files,
 * precompressed and cached by kind, and every page's document, which the web client's render module writes
 * (PagesService hands it the visitor and the site). Served by `webClientMiddleware` (app.factory.ts), before
 * Nest's routing; who is signed in comes from auth's service, the catalogue's stamp (when a kept page is stale)
 * from the video store, pictures' sizes and streams' starts from the media store.
 */
@Module({})
export class WebModule {
  static forRoot(webRoot: string | null): DynamicModule {
    return {
      module: WebModule,
      imports: [AuthModule, StorageModule, VideoStoreModule],
      providers: [
        { provide: WEB_BUILD, useFactory: () => loadWebBuild(webRoot) },
        { provide: PAGE_RENDERER, useFactory: () => loadPageRenderer(webRoot) },
        PagesService,
      ],
      exports: [PagesService],
    };
  }
}
